/** Shown while a market page's snapshot and releases load. */
export default function MarketLoading() {
  return (
    <main aria-busy="true">
      <p className="hint">Markets /</p>
      <h1 className="skeleton-line">Loading the market…</h1>
      <div className="chart skeleton" />
    </main>
  );
}
