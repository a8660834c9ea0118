// Milliseconds on a monotonic clock, for timing spans of work. Not `performance.now()`: its first use loads
// perf_hooks, ~0.6 ms of a one-shot command, where process.hrtime reads the same clock without it.

export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime()
  return seconds * 1e3 + nanoseconds / 1e6
}
