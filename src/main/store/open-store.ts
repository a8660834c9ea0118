import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { ChatsRepo } from './chats-repo'
import { StoreContext } from './context'
import { StoreFromTheFutureError, StoreReadOnlyError, StoreUnavailableError, translateSqliteError } from './errors'
import { MemoriesRepo } from './memories-repo'
import { latestVersion, migrate, readUserVersion, type Migration } from './migrate'
import { MIGRATIONS } from './migrations'
import { resolveNativeBinding } from './native-binding'
import { ProjectsRepo } from './projects-repo'
import { RunsRepo } from './runs-repo'
import { SettingsRepo } from './settings-repo'
import { EvaluationsRepo } from './evaluations-repo'
import { TokenScalesRepo } from './token-scales-repo'
import { FeedbackRepo } from './feedback-repo'
import { TrustApprovalsRepo } from '../trust/approvals-repo'
import { TokenCountsRepo } from './token-counts-repo'

export const STORE_FILE = 'glassbox.sqlite'

export interface OpenStoreOptions {
  /** Path of a better_sqlite3.node built for this runtime (see native-binding.ts for the default). */
  nativeBinding?: string
  /** How long a write waits for another process's lock before StoreBusyError (default 5 s). */
  busyTimeoutMs?: number
  /** Open without writing anything (an existing, up-to-date store only). */
  readonly?: boolean
  /** Clock for created/updated times (tests pin it). */
  now?: () => Date
  /** Schema steps to apply (tests use a prefix); defaults to every migration. */
  migrations?: readonly Migration[]
}

export interface Store {
  readonly file: string
  readonly db: Database.Database
  readonly schemaVersion: number
  readonly projects: ProjectsRepo
  readonly chats: ChatsRepo
  readonly runs: RunsRepo
  readonly memories: MemoriesRepo
  readonly settings: SettingsRepo
  readonly evaluations: EvaluationsRepo
  readonly tokenScales: TokenScalesRepo
  readonly feedback: FeedbackRepo
  /** What the user approved each project to do beyond its folder (servers, environment variables, processes). */
  readonly trust: TrustApprovalsRepo
  /** Token counts by content, so a part counted once is not counted again by a later process. */
  readonly tokenCounts: TokenCountsRepo
  /** Runs `work` atomically (repository calls inside join the same transaction). */
  transaction<T>(work: () => T): T
  close(): void
}

function errorCode(error: unknown): string | null {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : null
}

function createFolder(dataDir: string, file: string): void {
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    const code = errorCode(error)
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new StoreReadOnlyError(file, error)
    throw new StoreUnavailableError(file, error)
  }
}

/**
 * Opens (creating if needed) the store in `dataDir`: one SQLite file in WAL mode with foreign keys on,
 * migrated to the latest schema. A store from a newer Glassbox, a locked, read-only or damaged file each
 * fail with their own error class and leave the file as it was.
 */
export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  const file = join(dataDir, STORE_FILE)
  const migrations = options.migrations ?? MIGRATIONS
  const readonly = options.readonly ?? false
  if (!readonly) createFolder(dataDir, file)

  let db: Database.Database
  try {
    db = new Database(file, {
      nativeBinding: resolveNativeBinding(options.nativeBinding),
      readonly,
      fileMustExist: readonly,
      timeout: options.busyTimeoutMs ?? 5000
    })
  } catch (error) {
    throw translateSqliteError(error, file)
  }

  try {
    // Read the version before anything writes (WAL mode itself rewrites the header): a newer store stays untouched.
    const version = readUserVersion(db)
    const known = latestVersion(migrations)
    if (version > known) throw new StoreFromTheFutureError(file, version, known)
    if (readonly && version < known) throw new StoreReadOnlyError(file, new Error('the store needs a migration'))
    if (!readonly) {
      db.pragma('journal_mode = WAL')
      // NORMAL in WAL mode: a crashed or killed process never loses a commit; only a power cut can lose the
      // last few, never corrupt the file. FULL would fsync every message.
      db.pragma('synchronous = NORMAL')
    }
    db.pragma('foreign_keys = ON')
    migrate(db, migrations)
  } catch (error) {
    db.close()
    throw translateSqliteError(error, file)
  }

  const context = new StoreContext(db, file, options.now)
  const projects = new ProjectsRepo(context)
  const tokenCounts = new TokenCountsRepo(context, !readonly)
  return {
    file,
    db,
    schemaVersion: readUserVersion(db),
    projects,
    chats: new ChatsRepo(context),
    runs: new RunsRepo(context),
    memories: new MemoriesRepo(context),
    settings: new SettingsRepo(context, projects),
    evaluations: new EvaluationsRepo(context),
    tokenScales: new TokenScalesRepo(context),
    feedback: new FeedbackRepo(context),
    trust: new TrustApprovalsRepo(context),
    tokenCounts,
    transaction: (work) => context.write(work),
    close: () => {
      try {
        tokenCounts.save()
      } catch (error) {
        // A cache: counting again later is all a lost write costs.
        console.error(`[store] token counts not saved: ${error instanceof Error ? error.message : String(error)}`)
      }
      context.endBurst()
      db.close()
    }
  }
}
