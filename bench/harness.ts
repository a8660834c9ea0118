// `npm run bench` prints one JSON line per figure: {name, median_ms, p95_ms, n} and, for a figure judged
// against a floor measured in the same run, floor_name, floor_median_ms and ratio (= median / floor median).

export interface Figure {
  name: string
  median_ms: number
  p95_ms: number
  n: number
  floor_name?: string
  floor_median_ms?: number
  ratio?: number
}

export interface MeasureOptions {
  /** Timed iterations (default 50). */
  n?: number
  /** Untimed warm-up iterations (default 3). */
  warmup?: number
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)]
}

function round(ms: number): number {
  return Math.round(ms * 10_000) / 10_000
}

/** Summarises samples taken elsewhere (e.g. timed inside a child process). */
export function summarise(name: string, samples: readonly number[]): Figure {
  const sorted = [...samples].sort((a, b) => a - b)
  return { name, median_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), n: sorted.length }
}

/** Times `run` n times after a warm-up and summarises the samples. */
export async function measure(name: string, run: () => unknown, options: MeasureOptions = {}): Promise<Figure> {
  const n = options.n ?? 50
  for (let i = 0; i < (options.warmup ?? 3); i++) await run()
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return { name, median_ms: round(percentile(samples, 50)), p95_ms: round(percentile(samples, 95)), n }
}

/**
 * Times `run` and its floor `floorRun` alternately, n times each after a warm-up of both, and gives the figure
 * with that floor: a machine that slows down or speeds up while the figure is sampled moves both, not only one
 * (a floor sampled a minute earlier made the same build's ratio 2.4 one time and 3.1 the next).
 */
export async function measureWithFloor(name: string, run: () => unknown, floorName: string, floorRun: () => unknown, options: MeasureOptions = {}): Promise<Figure> {
  const n = options.n ?? 50
  for (let i = 0; i < (options.warmup ?? 3); i++) {
    await floorRun()
    await run()
  }
  const samples: number[] = []
  const floorSamples: number[] = []
  const time = async (work: () => unknown, into: number[]): Promise<void> => {
    const start = performance.now()
    await work()
    into.push(performance.now() - start)
  }
  for (let i = 0; i < n; i++) {
    await time(floorRun, floorSamples)
    await time(run, samples)
  }
  return withFloor(summarise(name, samples), summarise(floorName, floorSamples))
}

/** Attaches a floor measured in the same run to a figure. */
export function withFloor(figure: Figure, floor: Figure): Figure {
  return {
    ...figure,
    floor_name: floor.name,
    floor_median_ms: floor.median_ms,
    // Significant digits, not decimals: a ratio of 1/100,000 must not print as 0.
    ratio: Number((figure.median_ms / floor.median_ms).toPrecision(3))
  }
}

export function report(figure: Figure): void {
  process.stdout.write(JSON.stringify(figure) + '\n')
}
