/**
 * The EU Cloud Sovereignty Framework (European Commission, DG DIGIT, v1.2.1, October 2025) as the
 * catalogue uses it: eight sovereignty objectives, each assessed at an assurance level from
 * SEAL-0 (none) to SEAL-4 (full); a service's overall level is its weakest objective's (the
 * framework's floor rule). docs/sovereignty.md holds the register of how the catalogue's facts
 * are read against it.
 */
export const SOV_OBJECTIVES = {
  "SOV-1": { name: "Strategic", what: "Ownership, governance and control of the provider in the EU." },
  "SOV-2": { name: "Legal", what: "Exposure to non-EU law with extraterritorial reach (US CLOUD Act, FISA 702)." },
  "SOV-3": { name: "Data & AI", what: "Where data and models are processed, and who holds the keys." },
  "SOV-4": { name: "Operational", what: "EU-based staff, support and operations, and the ability to exit." },
  "SOV-5": { name: "Supply chain", what: "Where the hardware, software and subcontractors come from." },
  "SOV-6": { name: "Technology", what: "Open standards, open source and portability of the technology." },
  "SOV-7": { name: "Security & compliance", what: "EU security operations, audits and certifications." },
  "SOV-8": { name: "Environment", what: "Energy, emissions and environmental reporting of the service." },
} as const;

export type SovObjective = keyof typeof SOV_OBJECTIVES;

export const SOV_OBJECTIVE_IDS = Object.keys(SOV_OBJECTIVES) as [SovObjective, ...SovObjective[]];

/** Assurance levels; a level is evidenced by a fact, never assumed. */
export const SEAL_LEVELS = [0, 1, 2, 3, 4] as const;
export type SealLevel = (typeof SEAL_LEVELS)[number];

export const SEAL_NAMES: Record<SealLevel, string> = {
  0: "No sovereignty evidenced",
  1: "Jurisdictional sovereignty",
  2: "Data sovereignty",
  3: "Digital resilience",
  4: "Full digital sovereignty",
};

/** "SEAL-3": how every surface writes a level. */
export const sealLabel = (level: SealLevel) => `SEAL-${level}`;
