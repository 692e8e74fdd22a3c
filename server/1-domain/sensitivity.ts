/**
 * What a sensitivity analysis of a release holds (server/2-scoring/sensitivity.ts computes it; the
 * database stores it as it is, db/schema.ts): intervals of scores and ranks over the draws, how
 * settled each band is, and the odds of each rank. Types only.
 */
import type { Axis, EVIDENCE_CONFIDENCE } from "./market-definition";

/** How sure the catalogue is of a value (docs/catalogue.md, Evidence). */
export type EvidenceConfidence = (typeof EVIDENCE_CONFIDENCE)[number];

/** 5th and 95th percentile of an axis score over the draws, widened to contain the published score. */
export interface ScoreInterval {
  p5: number;
  p95: number;
}

/** 5th and 95th percentile of a rank over the draws (best is the smaller number), widened likewise. */
export interface RankInterval {
  best: number;
  worst: number;
}

/** One axis of one product. */
export interface AxisSensitivity {
  interval: ScoreInterval;
  /** Share of the draws in each band of the axis (every band named, 3 decimals). */
  bands: Record<string, number>;
  /** The published band holds in at least 95 % of the draws. */
  bandSettled: boolean;
}

/** A rank over the draws. */
export interface RankSensitivity {
  rankInterval: RankInterval;
}

/** Under one country's controls: the Max rank, and the Innovation retained (0 when unavailable). */
export interface ControlledSensitivity extends RankSensitivity {
  /** 5th and 95th percentile of the Innovation retained, widened to contain the published value. */
  retained: ScoreInterval;
}

/** The analysis of one release: what was used, and every product's intervals and odds. */
export interface MarketSensitivity {
  /** What was used, echoed so the methodology and the reading can state it. */
  seed: string;
  draws: number;
  concentration: number;
  spread: Record<EvidenceConfidence, number>;
  /** Per productId, per axis. */
  products: Record<string, Record<Axis, AxisSensitivity>>;
  /** Per productId: the rank by Innovation (competition ranking, as the Capability Index reading). */
  capabilityIndex: Record<string, RankSensitivity>;
  /** Per country (upper case), per productId: the rank by the Innovation retained under its controls (Max). */
  max: Record<string, Record<string, ControlledSensitivity>>;
  /**
   * How likely each rank is, for the Capability Index and under each country (Max); absent from
   * analyses stored before it existed, which are run again, with the same seed, when read.
   */
  odds?: {
    capabilityIndex: Record<string, RankOdds>;
    max: Record<string, Record<string, RankOdds>>;
  };
}

/**
 * The share of draws in which a product ranks within the top 1, 3 and 5 (three decimals, rounded so
 * that each column adds up to k over the products exactly: a draw has k places to give), and its
 * group of products statistically tied with it (null when it is unavailable). A tie in a draw shares
 * the places it spans: products tied over places 2–4 each count 2/3 within the top 3.
 */
export interface RankOdds {
  top1: number;
  top3: number;
  top5: number;
  /**
   * Groups numbered from 1 in the published order: a product starts a new group unless the one
   * before it retained more in fewer than 95 % of the draws (a tie counting half).
   */
  tieGroup: number | null;
}
