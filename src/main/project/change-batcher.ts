// Collects file-change notices into batches: a batch is applied once changes have been quiet for
// `debounceMs`, or after `maxWaitMs` of unbroken changes, and never while the previous batch is running.
// A burst of thousands of changes (a `git checkout`) therefore costs one rebuild, not thousands.

export interface ChangeBatch {
  /** Project-relative paths that changed (empty when `full`). */
  paths: Set<string>
  /** Too many changes, or an unknown one (watcher error, folder back): rescan everything. */
  full: boolean
}

export interface BatcherOptions {
  debounceMs: number
  maxWaitMs: number
  /** Past this many paths a batch becomes a full rescan, which is cheaper than patching path by path. */
  maxPaths: number
}

export class ChangeBatcher {
  private pending: ChangeBatch = { paths: new Set(), full: false }
  private firstPendingAt: number | null = null
  private lastChangeAt = 0
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private runningFull = false
  private closed = false

  constructor(
    private readonly apply: (batch: ChangeBatch) => Promise<void>,
    private readonly options: BatcherOptions
  ) {}

  add(relPath: string): void {
    if (!this.pending.full) {
      this.pending.paths.add(relPath)
      if (this.pending.paths.size > this.options.maxPaths) this.pending = { paths: new Set(), full: true }
    }
    this.noteChange()
  }

  requestFull(): void {
    this.pending = { paths: new Set(), full: true }
    this.noteChange()
  }

  /**
   * The paths waiting for the next batch; null when a full rescan is waiting or running (what changed is
   * unknown until it ends).
   */
  pendingPaths(): ReadonlySet<string> | null {
    return this.pending.full || this.runningFull ? null : this.pending.paths
  }

  /**
   * Applies `relPaths` at once, without the debounce (someone is waiting for them), after a batch already
   * running; resolves when they are applied. Other pending changes keep their schedule.
   */
  async applyNow(relPaths: readonly string[]): Promise<void> {
    while (this.running) await this.running
    if (this.closed || relPaths.length === 0) return
    for (const path of relPaths) this.pending.paths.delete(path)
    if (!this.hasPending()) this.firstPendingAt = null
    await this.run({ paths: new Set(relPaths), full: false })
  }

  /** Rescans everything at once, after a batch already running; what was pending is part of it. */
  async rescanNow(): Promise<void> {
    while (this.running) await this.running
    if (this.closed) return
    this.pending = { paths: new Set(), full: false }
    this.firstPendingAt = null
    await this.run({ paths: new Set(), full: true })
  }

  /** Stops scheduling and waits for a batch already running. Pending changes are dropped. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  private hasPending(): boolean {
    return this.pending.full || this.pending.paths.size > 0
  }

  private noteChange(): void {
    this.lastChangeAt = Date.now()
    this.firstPendingAt ??= this.lastChangeAt
    this.schedule()
  }

  /** Due when the last change is `debounceMs` old, or the first pending one `maxWaitMs` old. */
  private schedule(): void {
    if (this.closed || this.firstPendingAt === null) return
    const dueAt = Math.min(this.lastChangeAt + this.options.debounceMs, this.firstPendingAt + this.options.maxWaitMs)
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.flush(), Math.max(0, dueAt - Date.now()))
  }

  private flush(): void {
    this.timer = null
    // A batch still running picks up what arrived meanwhile when it ends (see the `finally` below).
    if (this.running || this.closed || !this.hasPending()) return
    const batch = this.pending
    this.pending = { paths: new Set(), full: false }
    this.firstPendingAt = null
    void this.run(batch)
  }

  private run(batch: ChangeBatch): Promise<void> {
    this.runningFull = batch.full
    this.running = this.apply(batch).finally(() => {
      this.running = null
      this.runningFull = false
      if (this.hasPending()) this.schedule()
    })
    return this.running
  }
}
