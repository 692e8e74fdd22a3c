// Preloaded into a benchmarked process (node --import): prints its peak resident memory at exit.
process.on("exit", () => {
  process.stderr.write(`[peak-rss-kib] ${process.resourceUsage().maxRSS}\n`);
});
