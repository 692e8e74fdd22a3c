"use client";
/**
 * Pick several of a known list (markets, countries) instead of typing ids: a filter box, a
 * scrolling list of checkboxes, and a line saying what is chosen (or what none means).
 */
import { useId, useState } from "react";

export type Choice = { value: string; label: string };

/** Longer lists get a filter box: a country is found by typing two letters of its name or code. */
const FILTER_FROM = 8;

export function ChoicePicker({
  legend,
  noneMeans,
  choices,
  chosen,
  onChange,
  testId,
}: {
  legend: string;
  /** What an empty choice means, e.g. "every market". */
  noneMeans: string;
  choices: readonly Choice[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  testId: string;
}) {
  const [filter, setFilter] = useState("");
  const summaryId = useId();
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? choices.filter((c) => c.label.toLowerCase().includes(needle) || c.value.toLowerCase().includes(needle))
    : choices;
  const labels = new Map(choices.map((c) => [c.value, c.label]));
  const toggle = (value: string) =>
    onChange(chosen.includes(value) ? chosen.filter((v) => v !== value) : [...chosen, value]);
  return (
    <fieldset className="choice-picker" data-testid={testId} aria-describedby={summaryId}>
      <legend>{legend}</legend>
      <p id={summaryId} className="hint" data-testid={`${testId}-summary`}>
        {chosen.length === 0
          ? `None chosen: ${noneMeans}.`
          : `${chosen.length} chosen: ${chosen.map((v) => labels.get(v) ?? v).join("; ")}.`}
        {chosen.length > 0 ? (
          <>
            {" "}
            <button type="button" className="link-button" onClick={() => onChange([])}>
              Clear<span className="sr-only"> {legend.toLowerCase()}</span>
            </button>
          </>
        ) : null}
      </p>
      {choices.length >= FILTER_FROM ? (
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter by name or code"
          aria-label={`Filter ${legend.toLowerCase()}`}
        />
      ) : null}
      <div className="choice-list">
        {shown.map((c) => (
          <label key={c.value} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(c.value)}
              onChange={() => toggle(c.value)}
              value={c.value}
            />
            <span>
              {c.label}
              {c.label !== c.value ? <span className="hint"> {c.value}</span> : null}
            </span>
          </label>
        ))}
        {shown.length === 0 ? <p className="hint">Nothing matches “{filter}”.</p> : null}
      </div>
    </fieldset>
  );
}
