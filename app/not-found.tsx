import Link from "next/link";

export default function NotFound() {
  return (
    <main>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link href="/">See every market</Link>.
      </p>
    </main>
  );
}
