import { realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildSnapshot, createCaches, emptySnapshot, type SnapshotCaches } from './build'
import { ChangeBatcher, type ChangeBatch } from './change-batcher'
import { canFence, eventFenceFor, type EventFence } from './event-fence'
import { changedPromptInputs, changedThroughLinks, isOnTheWayToPromptFolder, isPromptInput } from './prompt-inputs'
import { PromptFolderWatches } from './prompt-watches'
import { toProjectPath } from './safe-path'
import { DATABASES_FOLDER } from './databases'
import { walkForFirstPrompt } from './first-tree'
import { refreshPaths, walkProject, type ProjectTree } from './tree'
import { startTreeWatcher, type TreeWatcher } from './tree-watcher'
import type { ProjectSnapshot, TableRef } from './types'
import { errorMessage } from '../../shared/error-message'

// Keeps a ProjectSnapshot current while the project is open: the tree watcher (chokidar, in a worker thread)
// reports changes, the batcher groups them, and each batch patches the tree and rebuilds the snapshot from
// cached parsed files. The folder vanishing (deleted, renamed) keeps the last good snapshot with a diagnostic
// until it comes back.

export interface ProjectModel {
  snapshot(): ProjectSnapshot
  /**
   * The snapshot for a prompt asked for now: an edit to a file the prompt reads (RULES.md, a skill, an
   * override, the config) or a skill added or removed is read at once, even if the watcher has not reported it
   * yet or is still waiting for changes to settle.
   */
  freshSnapshot(): Promise<ProjectSnapshot>
  /** Called after every applied change with the new snapshot. Returns an unsubscribe function. */
  onChange(listener: (snapshot: ProjectSnapshot) => void): () => void
  close(): Promise<void>
}

/** What openProject returns: a ProjectModel that can also say when its watcher is fully up. */
export interface WatchedProjectModel extends ProjectModel {
  /**
   * Resolves once the watcher has finished its initial scan and the rescan that follows it (catching changes
   * made during the scan) has been applied, or failed; at once if the model closes first.
   */
  whenWatching(): Promise<void>
}

export interface OpenProjectOptions {
  /** Quiet time before a batch of changes is applied (default 200 ms). */
  debounceMs?: number
  /** Longest a stream of changes can hold a rebuild back (default 2 s). */
  maxWaitMs?: number
  /** How often to check that the project folder is still there (default 1 s). */
  livenessMs?: number
  /**
   * Up to this many schema folders (`databases/…/schema=…/`) are listed in full before the first snapshot
   * (default 4). Past it, the first snapshot lists what the system prompt depends on: the connections, and
   * the tables of the first schema folder that has any (the prompt says whether there are tables), without
   * their files. The snapshot with every table and file follows a debounce later.
   */
  listSchemaFoldersAtOpenUpTo?: number
}

/**
 * Longest the watcher's start after an open waits for the first prompt: starting its thread holds the event loop
 * for milliseconds, which the first prompt must not wait for (see startWatcher).
 */
const WATCHER_START_WAIT_MS = 50

export const FOLDER_GONE_PROBLEM =
  'project folder is gone (deleted, moved or renamed); showing its last known state until it is back at this path'

/** Opens a project and watches it. Rejects only when the folder cannot be opened at all. */
export async function openProject(root: string, options: OpenProjectOptions = {}): Promise<WatchedProjectModel> {
  // The OS's realpath, as fs/promises' realpath is, without a thread-pool round trip.
  const rootReal = realpathSync.native(root)
  const identity = identityOf(rootReal)
  if (identity === null) throw new Error(`Cannot open project "${root}": it is not a folder.`)
  const model = new WatchedProject(rootReal, identity, options)
  await model.start()
  return model
}

class WatchedProject implements WatchedProjectModel {
  private current: ProjectSnapshot
  private tree: ProjectTree = new Map()
  private caches: SnapshotCaches
  private watcher: TreeWatcher | null = null
  private gone = false
  private watching: Promise<void> = Promise.resolve()
  /** Settles a watcher start-up that close() cut short, so whenWatching() never hangs. */
  private abandonStart: () => void = () => {}
  /** Lets the watcher's first start go ahead (once the first prompt has been served, or on a timer). */
  private releaseWatcherStart: (() => void) | null = null
  private readonly listeners = new Set<(snapshot: ProjectSnapshot) => void>()
  private readonly batcher: ChangeBatcher
  private livenessTimer: NodeJS.Timeout | null = null
  private closed = false
  /** Watches of the prompt's folders, where their events can be fenced (see promptChangesFromEvents). */
  private readonly promptWatches: PromptFolderWatches | null
  /** Made when a prompt first needs it (undefined until then): opening a project must not wait for it. */
  private eventFence: EventFence | null | undefined

  constructor(
    private readonly root: string,
    private rootIdentity: string,
    private readonly options: OpenProjectOptions
  ) {
    this.current = emptySnapshot(root)
    this.caches = createCaches()
    this.promptWatches = canFence(root) ? new PromptFolderWatches(root, (path) => this.batcher.add(path)) : null
    this.batcher = new ChangeBatcher((batch) => this.applySafely(batch), {
      debounceMs: options.debounceMs ?? 200,
      maxWaitMs: options.maxWaitMs ?? 2000,
      maxPaths: 500
    })
  }

  async start(): Promise<void> {
    this.promptWatches?.update()
    const { tree, databasesDeferred } = await walkForFirstPrompt(this.root, this.options.listSchemaFoldersAtOpenUpTo)
    this.tree = tree
    // The first prompt needs no file list: it is made when first read, and apply() reads it before changing the tree.
    // Its files need no stat where the prompt's folders are watched (every later edit is an event).
    this.current = await buildSnapshot(this.root, this.tree, this.caches, 0, null, {
      filesOnFirstRead: true,
      firstReadsWithoutStat: this.promptWatches?.healthy() ?? false
    })
    // The rest of databases/, as one batch through the usual path: it publishes the complete snapshot.
    if (databasesDeferred) this.batcher.add(DATABASES_FOLDER)
    // chokidar's initial scan takes seconds on a big project; the snapshot is usable meanwhile. The rescan
    // once it is ready catches what changed in between (and publishes nothing if nothing did).
    this.watchInBackground(
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WATCHER_START_WAIT_MS)
        this.releaseWatcherStart = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    )
    this.livenessTimer = setInterval(() => this.checkLiveness(), this.options.livenessMs ?? 1000)
    this.livenessTimer.unref()
  }

  snapshot(): ProjectSnapshot {
    return this.current
  }

  whenWatching(): Promise<void> {
    return this.watching
  }

  async freshSnapshot(): Promise<ProjectSnapshot> {
    try {
      if (this.closed || this.gone) return this.current
      const changed = (await this.promptChangesFromEvents()) ?? changedPromptInputs(this.root, this.tree, this.caches)
      if (changed.length > 0 && !this.closed && !this.gone) await this.batcher.applyNow(changed)
      return this.current
    } finally {
      // After the caller's own synchronous work with the snapshot (its prompt), not before or during it.
      const release = this.releaseWatcherStart
      this.releaseWatcherStart = null
      if (release) setImmediate(release)
    }
  }

  /**
   * The prompt inputs changed since the last snapshot, told by the prompt folders' watches once the fence has
   * let through every event of a change made before this call; null when the events cannot be relied on (no
   * fence on this system, a watch failed, a full rescan waiting or running).
   */
  private async promptChangesFromEvents(): Promise<string[] | null> {
    if (!this.promptWatches?.healthy()) return null
    if (this.eventFence === undefined) this.eventFence = eventFenceFor(this.root)
    if (!this.eventFence || !(await this.eventFence.pass()) || !this.promptWatches.healthy()) return null
    const pending = this.batcher.pendingPaths()
    if (pending === null) return null
    const changed = [...pending].filter(isPromptInput)
    return [...changed, ...changedThroughLinks(this.root, this.caches)]
  }

  onChange(listener: (snapshot: ProjectSnapshot) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  async close(): Promise<void> {
    this.closed = true
    this.releaseWatcherStart?.()
    if (this.livenessTimer) clearInterval(this.livenessTimer)
    await this.batcher.close()
    await this.stopWatcher()
    this.promptWatches?.close()
    this.listeners.clear()
  }

  private async startWatcher(due: Promise<void>): Promise<void> {
    // Once the caller has what it opened the project for (its first prompt, say): the prompt folders' watches
    // and the rescan once the watcher is ready cover the moment in between. A one-shot command reads the
    // project without watching it.
    await due
    if (this.closed) return
    const watcher = startTreeWatcher(this.root, {
      onPath: (path) => this.batcher.add(toProjectPath(this.root, path)),
      onRaw: (folder, name) => {
        if (folder === null) return this.batcher.requestFull()
        this.batcher.add(toProjectPath(this.root, name ? join(folder, name) : folder))
      },
      onError: () => this.batcher.requestFull()
    })
    this.watcher = watcher
    await new Promise<void>((resolve) => {
      this.abandonStart = resolve
      void watcher.ready.then(resolve)
    })
  }

  /** Starts the watcher in the background once `due` settles (by default at once), then rescans to catch what changed while it scanned. */
  private watchInBackground(due = new Promise<void>((resolve) => setImmediate(resolve))): void {
    this.watching = this.startWatcher(due).then(() => {
      if (this.watcher) return this.batcher.rescanNow()
    })
  }

  private async stopWatcher(): Promise<void> {
    const watcher = this.watcher
    this.watcher = null
    this.abandonStart()
    await watcher?.close()
  }

  private checkLiveness(): void {
    if (this.closed) return
    const identity = identityOf(this.root)
    if (this.gone || identity !== this.rootIdentity) this.batcher.requestFull()
  }

  private async applySafely(batch: ChangeBatch): Promise<void> {
    try {
      await this.apply(batch)
    } catch (error) {
      const reason = errorMessage(error)
      this.publishWithProblem(`could not refresh the project (${reason}); showing its last known state`)
    }
  }

  private async apply(batch: ChangeBatch): Promise<void> {
    if (this.closed) return
    // Lists the first snapshot's files (see start()) from the tree and caches it was built from, before they change.
    void this.current.files
    const identity = identityOf(this.root)
    if (identity === null) return this.markGone()
    if (this.gone || identity !== this.rootIdentity) {
      // Back, or replaced by another folder at the same path: the old watcher and caches describe nothing.
      await this.stopWatcher()
      this.rootIdentity = identity
      this.gone = false
      this.caches = createCaches()
      this.watchInBackground()
      this.promptWatches?.close(true)
      this.promptWatches?.update()
      this.tree = await walkProject(this.root)
    } else if (batch.full) {
      this.promptWatches?.update('all')
      this.tree = await walkProject(this.root)
    } else {
      // A prompt folder that came is watched before it is read, so no edit after the read goes unseen.
      if ([...batch.paths].some(isOnTheWayToPromptFolder)) this.promptWatches?.update(batch.paths)
      await refreshPaths(this.root, this.tree, batch.paths)
      for (const cache of this.parsedFileCaches()) cache.invalidate(batch.paths)
    }
    if (this.closed) return
    const changed = batch.full ? null : batch.paths
    const next = await buildSnapshot(this.root, this.tree, this.caches, this.current.version, changed)
    // A rescan is a guess that something changed, and the watcher reports again an edit a prompt has already
    // read: when nothing changed, listeners are not bothered and caches keyed by the snapshot stay valid.
    if (sameContent(next, this.current)) return
    this.publish(next)
  }

  private parsedFileCaches(): Array<{ invalidate(paths: Iterable<string>): void }> {
    const { rules, config, ignore, skills, overrides } = this.caches
    return [rules, config, ignore, skills, overrides]
  }

  private async markGone(): Promise<void> {
    if (this.gone) return
    this.gone = true
    await this.stopWatcher() // its handles follow the old folder wherever it went
    this.promptWatches?.close(true)
    this.publishWithProblem(FOLDER_GONE_PROBLEM)
  }

  /** Republishes the last snapshot with a problem about the whole folder (once, however often it recurs). */
  private publishWithProblem(problem: string): void {
    if (this.current.diagnostics.some((diagnostic) => diagnostic.file === '.' && diagnostic.problem === problem)) return
    this.publish({ ...this.current, diagnostics: [...this.current.diagnostics, { file: '.', problem }] })
  }

  private publish(snapshot: ProjectSnapshot): void {
    this.current = { ...snapshot, version: this.current.version + 1 }
    for (const listener of this.listeners) {
      try {
        listener(this.current)
      } catch (error) {
        console.error('[project] a change listener failed:', error)
      }
    }
  }
}

function sameContent(a: ProjectSnapshot, b: ProjectSnapshot): boolean {
  // The big parts are usually the very same objects (kept while unchanged); compared by value otherwise.
  if (!sameStrings(a.files, b.files)) return false
  if (a.rules !== b.rules && (a.rules?.source !== b.rules?.source || a.rules?.text !== b.rules?.text)) return false
  if (!sameTables(a.tables, b.tables)) return false
  if (a.skills !== b.skills && (a.skills.length !== b.skills.length || JSON.stringify(a.skills) !== JSON.stringify(b.skills))) return false
  const rest = (snapshot: ProjectSnapshot) => JSON.stringify({ ...snapshot, files: null, tables: null, rules: null, skills: null, version: 0 })
  return rest(a) === rest(b)
}

type TableNameField = Exclude<keyof TableRef, 'files'>
/** A table's fields besides its files, every one of them (`satisfies` fails the type check when TableRef gains one). */
const TABLE_NAME_FIELDS = Object.keys({ dir: true, type: true, database: true, schema: true, table: true } satisfies Record<TableNameField, true>) as TableNameField[]

/** Field by field: JSON of a warehouse's 5,000 tables, twice, held the event loop for ~20 ms after every rescan. */
function sameTables(a: readonly TableRef[], b: readonly TableRef[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) {
    const x = a[index]
    const y = b[index]
    if (TABLE_NAME_FIELDS.some((field) => x[field] !== y[field]) || !sameStrings(x.files, y.files)) return false
  }
  return true
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => item === b[index]))
}

/**
 * Device and inode of the folder, or null when nothing (or not a folder) is at the path. Synchronous: a prompt
 * waiting for a change must not queue behind the thread pool's other file work for one stat.
 */
function identityOf(path: string): string | null {
  const info = statSync(path, { throwIfNoEntry: false })
  return info?.isDirectory() ? `${info.dev}:${info.ino}` : null
}
