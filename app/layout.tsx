import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { TrpcProvider } from "@/components/trpc-provider";
import { ICON_PATH } from "@/server/2-http/icon";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Market Positioning Service", template: "%s · Market Positioning Service" },
  description: "Innovation, Control and Scale per product, and what each product keeps under a country's controls.",
  icons: { icon: { url: ICON_PATH, type: "image/svg+xml" } },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#content" className="skip-link">
          Skip to content
        </a>
        <TrpcProvider>
          <SiteHeader />
          <div id="content">{children}</div>
        </TrpcProvider>
      </body>
    </html>
  );
}
