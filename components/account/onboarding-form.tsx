"use client";
/** Creates an organization (name and home country) and goes back to where the person was headed. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { byCountryName } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

export function OnboardingForm({ returnTo }: { returnTo: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const countries = useQuery(trpc.organizations.countries.queryOptions());
  const [name, setName] = useState("");
  const [homeCountry, setHomeCountry] = useState("");
  const create = useMutation(
    trpc.organizations.create.mutationOptions({
      onSuccess: () => {
        router.push(returnTo);
        router.refresh();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, homeCountry });
  };
  return (
    <form onSubmit={submit} className="stack">
      <label>
        Organization name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Home country
        <select
          value={homeCountry}
          onChange={(e) => setHomeCountry(e.target.value)}
          required
          disabled={countries.isPending}
          data-testid="home-country"
        >
          <option value="">{countries.isPending ? "Loading countries…" : "Choose a country"}</option>
          {byCountryName(countries.data ?? []).map((c) => (
            <option key={c.country} value={c.country}>
              {c.name} ({c.country}){c.controlCount === 0 ? " — no sovereign controls" : ""}
            </option>
          ))}
        </select>
        <span className="hint">Readings that name no country engage this country&apos;s sovereign controls.</span>
      </label>
      <ProblemAlert errors={[countries.error]} />
      <ProblemAlert errors={[create.error]} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create organization"}
      </button>
    </form>
  );
}
