/** Shown while a product's breakdown loads. */
export default function ProductLoading() {
  return (
    <main aria-busy="true">
      <p className="hint">Markets /</p>
      <h1 className="skeleton-line">Loading the product…</h1>
      <div className="chart skeleton" />
    </main>
  );
}
