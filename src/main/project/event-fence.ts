import { lstatSync, mkdtempSync, readdir, rmSync, statfsSync, utimesSync, watch, writeFileSync, type FSWatcher } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// On Linux every fs.watch of a process reads one inotify queue (libuv keeps one per event loop), and the
// kernel queues events in the order the changes happened. Touching a file in a folder of our own and waiting
// for that touch's event therefore delivers, first, the event of every change finished before the touch: a
// prompt can learn that nothing it reads has changed in one touch and one event-loop turn (~30 µs) instead of
// a stat per file it read (~2 µs each, 300 skills). Elsewhere (FSEvents, ReadDirectoryChangesW) there is no
// such order across watches, so there is no fence and prompts keep checking with stats.

/** Longest wait for the fence's own event before it is given up for good (a watch that stopped reporting). */
const PASS_TIMEOUT_MS = 1000

/**
 * Filesystems on which inotify sees every change to a file (the kernel makes them all). Network and FUSE
 * filesystems (NFS, SMB, 9p, sshfs) can change under the kernel without an event, so they are not trusted.
 */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
  0x52654973, // reiserfs
  0x3153464a // jfs
])

export interface EventFence {
  /**
   * Resolves true once every watch event of a change finished before the call has been delivered to its
   * listener; false when that cannot be known (the fence is broken: the caller must check for itself).
   */
  pass(): Promise<boolean>
}

let shared: FenceOnTempFolder | null | undefined

/** Whether watch events of `folder` can be fenced: Linux, and `folder` on a local filesystem. */
export function canFence(folder: string): boolean {
  return isLocalLinuxFolder(folder)
}

/**
 * Linux, and `folder` on a local filesystem: inotify sees every change there, and a read of a regular file
 * returns all of it up to its end (a network filesystem may return less).
 */
export function isLocalLinuxFolder(folder: string): boolean {
  return process.platform === 'linux' && onLocalFilesystem(folder)
}

/** The process's fence, when watch events of `folder` can be fenced (see canFence); null otherwise. */
export function eventFenceFor(folder: string): EventFence | null {
  if (!canFence(folder)) return null
  if (shared === undefined) shared = FenceOnTempFolder.create()
  return shared?.broken ? null : shared
}

function onLocalFilesystem(folder: string): boolean {
  try {
    return LOCAL_FILESYSTEMS.has(Number(statfsSync(folder).type))
  } catch {
    return false
  }
}

class FenceOnTempFolder implements EventFence {
  broken = false
  private touches = 0
  /** One pass at a time: a late event of an earlier touch must not be taken for a later touch's. */
  private queue: Promise<boolean> = Promise.resolve(true)
  private waiting: ((delivered: boolean) => void) | null = null

  private constructor(
    private readonly folder: string,
    private readonly file: string,
    private readonly watcher: FSWatcher
  ) {
    watcher.on('change', (_event, name) => {
      if (name !== FENCE_FILE) return
      const waiting = this.waiting
      this.waiting = null
      waiting?.(true)
    })
    watcher.on('error', () => this.breakFence())
  }

  static create(): FenceOnTempFolder | null {
    let folder: string | null = null
    try {
      removeFoldersOfGoneProcessesSoon()
      folder = mkdtempSync(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`))
      const file = join(folder, FENCE_FILE)
      writeFileSync(file, '')
      // Not persistent: the fence must never keep the process alive.
      const fence = new FenceOnTempFolder(folder, file, watch(folder, { persistent: false }))
      process.once('exit', () => fence.dispose())
      return fence
    } catch {
      if (folder) rmSync(folder, { recursive: true, force: true })
      return null
    }
  }

  pass(): Promise<boolean> {
    const next = this.queue.then(() => this.touchAndWait())
    this.queue = next
    return next
  }

  private touchAndWait(): Promise<boolean> {
    if (this.broken) return Promise.resolve(false)
    return new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => this.breakFence(), PASS_TIMEOUT_MS)
      timeout.unref()
      this.waiting = (delivered) => {
        clearTimeout(timeout)
        resolve(delivered)
      }
      try {
        // A new time each touch, so no two touches are the same change.
        const seconds = ++this.touches
        utimesSync(this.file, seconds, seconds)
      } catch {
        this.breakFence()
      }
    })
  }

  private breakFence(): void {
    this.broken = true
    const waiting = this.waiting
    this.waiting = null
    waiting?.(false)
  }

  private dispose(): void {
    this.breakFence()
    this.watcher.close()
    rmSync(this.folder, { recursive: true, force: true })
  }
}

const FENCE_FILE = 'fence'
/** A fence folder is `glassbox-fence-<pid>-<random>`: the pid says whether its process is still there. */
const FOLDER_PREFIX = 'glassbox-fence-'

/**
 * A process killed by a signal leaves its folder behind (no exit handler runs): the next fence removes the
 * folders of processes that are gone, among those this user owns. In the background, the temp folder listed in
 * the thread pool: on a machine whose temp folder holds thousands of entries, listing it took milliseconds of
 * the first prompt after a project opened.
 */
function removeFoldersOfGoneProcessesSoon(): void {
  readdir(tmpdir(), (error, names) => {
    if (error) return
    try {
      removeFoldersOfGoneProcessesAmong(names)
    } catch {
      // Left for the next process: a folder of a gone process costs some disk space, nothing else.
    }
  })
}

function removeFoldersOfGoneProcessesAmong(names: readonly string[]): void {
  const uid = process.getuid?.()
  for (const name of names) {
    if (!name.startsWith(FOLDER_PREFIX)) continue
    const pid = Number(name.slice(FOLDER_PREFIX.length).split('-')[0])
    if (!Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue
    const path = join(tmpdir(), name)
    const info = lstatSync(path, { throwIfNoEntry: false })
    if (info?.isDirectory() && info.uid === uid) rmSync(path, { recursive: true, force: true })
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
