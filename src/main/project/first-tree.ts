import { DATABASES_FOLDER } from './databases'
import { listFolders, walkProjectExcept, type ProjectTree } from './tree'

// The tree the first prompt is built from. A synced warehouse is thousands of table folders of three files
// each; the prompt shows only the connections (`databases/type=…/database=…`) and whether there are tables.
// Past a few schema folders, those are listed at once and the table folders after the first prompt.

/** Up to this many schema folders (`databases/…/schema=…/`) are listed in full before the first snapshot. */
export const LIST_SCHEMA_FOLDERS_AT_OPEN_UP_TO = 4

export interface FirstTree {
  tree: ProjectTree
  /** Whether `databases/` still waits to be listed in full (refreshPaths on it fills it in). */
  databasesDeferred: boolean
}

/**
 * Walks the project but, past `listSchemaFoldersUpTo` schema folders, lists only the tables of the first
 * schema folder that has any (without their files): the prompt says whether there are tables.
 */
export async function walkForFirstPrompt(root: string, listSchemaFoldersUpTo = LIST_SCHEMA_FOLDERS_AT_OPEN_UP_TO): Promise<FirstTree> {
  const { tree, deferred: schemas } = await walkProjectExcept(root, isSchemaFolder)
  if (schemas.length <= listSchemaFoldersUpTo) {
    await listFolders(root, tree, schemas)
    return { tree, databasesDeferred: false }
  }
  for (const schema of schemas) {
    const tables = await listFolders(root, tree, [schema], isTableFolder)
    if (tables.some((folder) => folder.slice(folder.lastIndexOf('/') + 1).startsWith('table='))) break
  }
  return { tree, databasesDeferred: true }
}

/** `databases/type=…/database=…/schema=…`, the level below which a big project is listed after the first snapshot. */
function isSchemaFolder(relPath: string): boolean {
  return isDatabasesLevel(relPath, 3)
}

/** `databases/type=…/database=…/schema=…/table=…`. */
function isTableFolder(relPath: string): boolean {
  return isDatabasesLevel(relPath, 4)
}

function isDatabasesLevel(relPath: string, depth: number): boolean {
  if (!relPath.startsWith(DATABASES_FOLDER + '/')) return false
  let slashes = 0
  for (let at = relPath.indexOf('/'); at !== -1; at = relPath.indexOf('/', at + 1)) slashes++
  return slashes === depth
}
