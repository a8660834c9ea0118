import { lstatSync, watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import { isAtOrAbove, PROMPT_FOLDER_CHAIN } from './prompt-inputs'

// The folders whose entries the system prompt is made of, watched directly (not through the project's
// watcher, whose scan of a big project takes seconds and which adds a new folder's watch a little after the
// folder's own event). Each is watched before its files are read, so every change after a read is an event;
// with the event fence (event-fence.ts), a prompt then learns of edits without a stat per file.

export class PromptFolderWatches {
  private readonly watches = new Map<string, FSWatcher>()
  private failed = false
  private closed = false

  constructor(
    private readonly root: string,
    /** Told of every event, as the project-relative path that changed (the folder itself when unnamed). */
    private readonly onChange: (relPath: string) => void
  ) {}

  /**
   * Watches each prompt folder that is there now and stops watching those gone. A folder among `changed` (or
   * under one that is), or every folder after a full rescan ('all': what changed is unknown), is watched anew:
   * removed and made again, it may have the same inode number, and the old watch ended with the old folder.
   * Call it before reading their files. A watch that cannot be made leaves the watches unhealthy.
   */
  update(changed: ReadonlySet<string> | 'all' = new Set()): void {
    if (this.closed) return
    for (const folder of PROMPT_FOLDER_CHAIN) {
      const path = folder === '' ? this.root : join(this.root, folder)
      const isFolder = lstatSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false
      const current = this.watches.get(folder)
      // A symlinked folder is not listed (its files are hidden), so there is nothing of it to watch.
      if (!isFolder) {
        current?.close()
        this.watches.delete(folder)
        continue
      }
      if (current && changed !== 'all' && ![...changed].some((path) => isAtOrAbove(path, folder))) continue
      try {
        // The new watch is made before the old one is closed, so no event falls between them.
        const watcher = watch(path, { persistent: false }, (_event, name) => this.onChange(name ? (folder === '' ? name : `${folder}/${name}`) : folder))
        watcher.on('error', () => (this.failed = true))
        this.watches.set(folder, watcher)
      } catch {
        this.failed = true
      }
      current?.close()
    }
  }

  /** Whether every watch made so far is working. */
  healthy(): boolean {
    return !this.failed && !this.closed
  }

  /** Stops every watch; `reset` makes the next update start afresh (the folder was replaced). */
  close(reset = false): void {
    for (const watcher of this.watches.values()) watcher.close()
    this.watches.clear()
    if (reset) this.failed = false
    else this.closed = true
  }
}
