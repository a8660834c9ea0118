import { basename } from 'node:path'
import type { Diagnostic } from '../../shared/prompt'
import { CONFIG_FILE, parseConfig, resolveDatabases, type ProjectConfig } from './config'
import { DATABASES_FOLDER, readDatabaseLayout, type DatabaseLayout } from './databases'
import { overrideSlotOf, parseOverride, PROMPTS_FOLDER } from './overrides'
import { ParsedFileCache, type Loaded, type Parsed } from './parse-cache'
import { FolderRealPaths, TEXT_LIMITS } from './read-text'
import { parseSkill, SKILLS_FOLDER } from './skills'
import { timeSlicer, type TimeSlice } from './time-slice'
import { forEachEntrySliced, type ProjectTree, type TreeEntry } from './tree'
import type { ProjectFile, ProjectSnapshot, Skill } from './types'
import { NO_PATTERNS, parseIgnorePatterns, visibilityFor } from './visibility'

// Turns a tree of paths into a ProjectSnapshot, reading only the files the prompt needs (rules, config,
// .naoignore, skills, overrides) and reusing their parsed form while they are unchanged.

export const RULES_FILE = 'RULES.md'
export const IGNORE_FILE = '.naoignore'
type ContextFolder = 'databases' | 'docs' | 'semantics' | 'repos' | 'queries'

/** Parsed-file caches that live as long as the open project; a one-off load uses fresh ones. */
export interface SnapshotCaches {
  rules: ParsedFileCache<ProjectFile | null>
  config: ParsedFileCache<ProjectConfig>
  ignore: ParsedFileCache<string[]>
  skills: ParsedFileCache<Skill>
  overrides: ParsedFileCache<ProjectFile | null>
  /** The last `databases/` layout; reused while no path under databases/ changes. */
  layout: DatabaseLayout | null
  /** The last skills read: the listing they were read from, the list (kept while its skills are the same objects), their diagnostics. */
  skillsRead: SkillsRead | null
  /** The last visible-files list, with the patterns it was made for and its paths as a set (kept in step). */
  visible: { patterns: readonly string[]; files: string[]; set: Set<string> } | null
  /** The files the last snapshot listed in each folder the prompt reads from (see LISTED_FOLDERS). */
  listed: Listed | null
  /** The symlinks in the tree at the last snapshot. */
  links: string[] | null
}

interface SkillsRead {
  paths: readonly string[]
  skills: Skill[]
  diagnostics: Diagnostic[]
}

/** Folders whose files (directly in them, by name) the snapshot lists: skills, prompt overrides, tests. */
const LISTED_FOLDERS = { [SKILLS_FOLDER]: /\.md$/i, [PROMPTS_FOLDER]: /\.md$/i, tests: /\.ya?ml$/i } as const
type Listed = Record<keyof typeof LISTED_FOLDERS, string[]>

export function createCaches(): SnapshotCaches {
  return {
    rules: new ParsedFileCache(parseRules),
    config: new ParsedFileCache((_path, text) => {
      const config = parseConfig(text)
      return { value: config, diagnostics: config.diagnostics }
    }),
    ignore: new ParsedFileCache((_path, text) => ({ value: parseIgnorePatterns(text), diagnostics: [] })),
    skills: new ParsedFileCache((path, text) => {
      const parsed = parseSkill(path, text)
      return { value: parsed.skill, diagnostics: parsed.diagnostics }
    }),
    overrides: new ParsedFileCache(parseOverride),
    layout: null,
    skillsRead: null,
    visible: null,
    listed: null,
    links: null
  }
}

/**
 * Builds the snapshot for `tree`. `changed` lists the paths that changed since the caches were last used
 * (null: unknown, recompute everything); parts no changed path can affect are reused.
 */
export async function buildSnapshot(
  root: string,
  tree: ProjectTree,
  caches: SnapshotCaches,
  version: number,
  changed: ReadonlySet<string> | null = null,
  options: BuildOptions = {}
): Promise<ProjectSnapshot> {
  const diagnostics: Diagnostic[] = []
  const slice = timeSlicer()
  const folders = new FolderRealPaths(root)
  // Synchronous, with a pause only between files when the slice is used up: awaiting every file would cost
  // a microtask hop each.
  const loadedIf = <T>(cache: ParsedFileCache<T>, path: string, maxBytes: number): Loaded<T> | null => {
    if (!isReadableEntry(tree.get(path))) return null
    return cache.load(root, path, maxBytes, {
      unchanged: changed !== null && !changed.has(path),
      folders,
      firstReadWithoutStat: options.firstReadsWithoutStat
    })
  }
  const loadIf = <T>(cache: ParsedFileCache<T>, path: string, maxBytes: number): T | null => {
    const loaded = loadedIf(cache, path, maxBytes)
    if (loaded) diagnostics.push(...loaded.diagnostics)
    return loaded?.value ?? null
  }
  const listed = await listedReusing(tree, caches, changed, slice)
  const skillPaths = listed[SKILLS_FOLDER]
  const overridePaths = listed[PROMPTS_FOLDER].filter((path) => overrideSlotOf(path) !== null && isReadableEntry(tree.get(path)))
  // One file after another: the reads are synchronous and short, and slicing keeps the process answering.
  const ignorePatterns = loadIf(caches.ignore, IGNORE_FILE, TEXT_LIMITS.naoignore)
  const rules = loadIf(caches.rules, RULES_FILE, TEXT_LIMITS.rules)
  const config = loadIf(caches.config, CONFIG_FILE, TEXT_LIMITS.config)
  let skills = lastSkillsIfUnchanged(caches, skillPaths, changed)
  if (!skills) {
    const loaded: Skill[] = []
    const skillDiagnostics: Diagnostic[] = []
    for (const path of skillPaths) {
      const pause = slice()
      if (pause) await pause
      const skill = loadedIf(caches.skills, path, TEXT_LIMITS.skill)
      if (!skill) continue
      skillDiagnostics.push(...skill.diagnostics)
      if (skill.value) loaded.push(skill.value)
    }
    skills = keepSkillsRead(caches, skillPaths, loaded, skillDiagnostics)
  }
  diagnostics.push(...skills.diagnostics)
  const overrides: Array<{ path: string; file: ProjectFile | null }> = []
  for (const path of overridePaths) {
    const pause = slice()
    if (pause) await pause
    overrides.push({ path, file: loadIf(caches.overrides, path, TEXT_LIMITS.override) })
  }
  caches.overrides.retain(new Set(overridePaths))

  const layout = caches.layout && changed && !touchesDatabases(changed) ? caches.layout : await readDatabaseLayout(tree, slice)
  caches.layout = layout
  diagnostics.push(...layout.diagnostics)
  const databases = resolveDatabases(root, config?.databases ?? [])
  diagnostics.push(...databases.diagnostics)
  const patterns = ignorePatterns ?? NO_PATTERNS
  const links = await linksReusing(tree, caches, changed, slice)
  diagnostics.push(...symlinkProblems(tree, links, patterns, new Set(diagnostics.map((diagnostic) => diagnostic.file))))
  const snapshot: Omit<ProjectSnapshot, 'files'> = {
    root,
    name: config?.projectName ?? basename(root),
    rules,
    connections: layout.connections,
    databases: databases.databases,
    tables: layout.tables,
    skills: skills.skills,
    ...placeOverrides(overrides),
    contextFolders: contextFoldersOf(tree),
    tests: listed.tests.filter((path) => isFileInside(tree.get(path))),
    ignorePatterns: patterns,
    diagnostics: sortDiagnostics(diagnostics),
    version
  }
  if (options.filesOnFirstRead) return withFilesOnFirstRead(snapshot, () => visibleFilesReusing(tree, patterns, caches, changed))
  return { ...snapshot, files: await visibleFilesReusing(tree, patterns, caches, changed, slice) }
}

export interface BuildOptions {
  /**
   * List the visible files when the snapshot's `files` is first read, not now: a prompt does not need them.
   * The caller must read `files` before `tree` or `caches` change (they are read then).
   */
  filesOnFirstRead?: boolean
  /**
   * Files read for the first time may be read without a stat (see ParsedFileCache.load): only when every
   * folder the snapshot reads files from is watched, and on a local filesystem (see isLocalLinuxFolder).
   */
  firstReadsWithoutStat?: boolean
}

function withFilesOnFirstRead(snapshot: Omit<ProjectSnapshot, 'files'>, listFiles: () => string[]): ProjectSnapshot {
  let files: string[] | null = null
  return Object.defineProperty(snapshot, 'files', { get: () => (files ??= listFiles()), enumerable: true }) as ProjectSnapshot
}

/** At most this many symlink diagnostics, then one line with the count: a cloned repo can hold hundreds. */
const MAX_SYMLINK_PROBLEMS = 20

const SYMLINK_PROBLEMS = {
  outside: 'is a symlink to a place outside the project; hidden from the agent',
  broken: 'is a broken symlink (or leads to no regular file); hidden from the agent',
  dir: 'is a symlinked folder; it is not followed, so its files are hidden from the agent'
} as const

/** Symlinks the agent cannot follow, except those already reported (a refused skill, a databases/ level). */
function symlinkProblems(tree: ProjectTree, links: readonly string[], patterns: readonly string[], reported: ReadonlySet<string>): Diagnostic[] {
  if (links.length === 0) return []
  const visibility = visibilityFor(patterns)
  const problems: Diagnostic[] = []
  for (const path of links) {
    const entry = tree.get(path)
    if (entry?.kind !== 'symlink' || entry.resolves === 'file' || reported.has(path)) continue
    if (!visibility.isHidden(path, 'file')) problems.push({ file: path, problem: SYMLINK_PROBLEMS[entry.resolves] })
  }
  if (problems.length <= MAX_SYMLINK_PROBLEMS) return problems
  problems.sort((a, b) => compare(a.file, b.file))
  const more = problems.length - MAX_SYMLINK_PROBLEMS
  return [...problems.slice(0, MAX_SYMLINK_PROBLEMS), { file: '.', problem: `${more} more symlinks cannot be followed; they are hidden from the agent` }]
}

type OverrideFields = Pick<ProjectSnapshot, 'systemOverride' | 'channelOverrides' | 'userPromptOverride'>

function placeOverrides(overrides: ReadonlyArray<{ path: string; file: ProjectFile | null }>): OverrideFields {
  const fields: OverrideFields = { systemOverride: null, channelOverrides: {}, userPromptOverride: null }
  for (const { path, file } of overrides) {
    const slot = overrideSlotOf(path)
    if (!file || !slot) continue
    if (slot.kind === 'system') fields.systemOverride = file
    else if (slot.kind === 'user-prompt') fields.userPromptOverride = file
    else fields.channelOverrides[slot.channel] = file
  }
  return fields
}

/** A snapshot of a project with nothing in it, e.g. before the first load finishes. */
export function emptySnapshot(root: string): ProjectSnapshot {
  return {
    root,
    name: basename(root),
    rules: null,
    connections: [],
    databases: [],
    tables: [],
    skills: [],
    systemOverride: null,
    channelOverrides: {},
    userPromptOverride: null,
    contextFolders: { databases: false, docs: false, semantics: false, repos: false, queries: false },
    tests: [],
    files: [],
    ignorePatterns: [],
    diagnostics: [],
    version: 0
  }
}

/** The last skills read, when neither the skills' listing nor any file in their folder changed (an edit elsewhere). */
function lastSkillsIfUnchanged(caches: SnapshotCaches, paths: readonly string[], changed: ReadonlySet<string> | null): SkillsRead | null {
  const last = caches.skillsRead
  return last && last.paths === paths && changed && !touchesSkillFiles(changed) ? last : null
}

/** Keeps what was read; the same skills keep the same array, so the rendered Skills section (memoised per list) is reused. */
function keepSkillsRead(caches: SnapshotCaches, paths: readonly string[], loaded: Skill[], diagnostics: Diagnostic[]): SkillsRead {
  caches.skills.retain(new Set(paths))
  const last = caches.skillsRead
  caches.skillsRead = { paths, skills: last && sameItems(last.skills, loaded) ? last.skills : loaded, diagnostics }
  return caches.skillsRead
}

function touchesSkillFiles(changed: ReadonlySet<string>): boolean {
  for (const path of changed) if (path.startsWith(SKILLS_FOLDER + '/')) return true
  return false
}

function touchesDatabases(changed: ReadonlySet<string>): boolean {
  for (const path of changed) if (path === DATABASES_FOLDER || path.startsWith(DATABASES_FOLDER + '/')) return true
  return false
}

function parseRules(relPath: string, text: string): Parsed<ProjectFile | null> {
  return { value: text.trim() === '' ? null : { source: relPath, text }, diagnostics: [] }
}

// After an edit or a new file, the lists of the last snapshot are patched rather than made again: making them
// is a pass over every path of the tree (~20,000 on a synced warehouse), and a prompt may be waiting.

/** LISTED_FOLDERS' files, patched from the last lists when `changed` names only files, else listed again (in time slices). */
async function listedReusing(tree: ProjectTree, caches: SnapshotCaches, changed: ReadonlySet<string> | null, slice: TimeSlice): Promise<Listed> {
  const patched = caches.listed && changed ? patchedListing(caches.listed, tree, changed) : null
  caches.listed = patched ?? (await pathsIn(tree, LISTED_FOLDERS, slice))
  return caches.listed
}

/** `last` with each changed file directly in a listed folder added or removed; null when a folder itself (or one above it) changed. */
function patchedListing(last: Listed, tree: ProjectTree, changed: ReadonlySet<string>): Listed | null {
  const next = { ...last }
  const folders = Object.keys(LISTED_FOLDERS) as Array<keyof Listed>
  for (const path of changed) {
    for (const folder of folders) {
      if (path === '' || folder === path || folder.startsWith(path + '/')) return null
      const prefix = folder + '/'
      if (!path.startsWith(prefix) || path.indexOf('/', prefix.length) !== -1) continue
      const entry = tree.get(path)
      const listedNow = entry !== undefined && entry.kind !== 'dir' && LISTED_FOLDERS[folder].test(path)
      const at = sortedIndex(next[folder], path)
      if (listedNow === (next[folder][at] === path)) continue
      if (next[folder] === last[folder]) next[folder] = last[folder].slice()
      if (listedNow) next[folder].splice(at, 0, path)
      else next[folder].splice(at, 1)
    }
  }
  return next
}

/** The tree's symlinks, patched from the last list unless a folder changed (its walk may have brought new ones). */
async function linksReusing(tree: ProjectTree, caches: SnapshotCaches, changed: ReadonlySet<string> | null, slice: TimeSlice): Promise<string[]> {
  const patched = caches.links && changed ? patchedLinks(caches.links, tree, changed) : null
  if (patched) return (caches.links = patched)
  const links: string[] = []
  await forEachEntrySliced(tree, slice, (path, entry) => {
    if (entry.kind === 'symlink') links.push(path)
  })
  return (caches.links = links)
}

function patchedLinks(last: string[], tree: ProjectTree, changed: ReadonlySet<string>): string[] | null {
  let links = last
  for (const path of changed) {
    const entry = tree.get(path)
    if (path === '' || entry?.kind === 'dir') return null
    // What was below a path that is no longer a folder went with it.
    const below = path + '/'
    if (links.some((link) => link === path || link.startsWith(below))) links = links.filter((link) => link !== path && !link.startsWith(below))
    if (entry?.kind === 'symlink') links = [...links, path]
  }
  return links
}

/**
 * For each folder, the files directly in it whose name matches, sorted; one pass over the tree for all of them.
 * Symlinks count; the guard vets them on read.
 */
async function pathsIn<F extends string>(tree: ProjectTree, folders: Record<F, RegExp>, slice: TimeSlice): Promise<Record<F, string[]>> {
  const wanted = (Object.keys(folders) as F[]).map((folder) => ({ folder, prefix: folder + '/', name: folders[folder], paths: [] as string[] }))
  // Prefix tests, no substring per path: the tree has an entry for each of a warehouse's ~20,000 files.
  await forEachEntrySliced(tree, slice, (path, entry) => {
    if (entry.kind === 'dir') return
    for (const { prefix, name, paths } of wanted) {
      if (path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1 && name.test(path)) paths.push(path)
    }
  })
  return Object.fromEntries(wanted.map(({ folder, paths }) => [folder, paths.sort()])) as Record<F, string[]>
}

function isReadableEntry(entry: TreeEntry | undefined): boolean {
  return entry !== undefined && entry.kind !== 'dir' && !(entry.kind === 'symlink' && entry.resolves === 'dir')
}

function isFileInside(entry: TreeEntry | undefined): boolean {
  return entry !== undefined && (entry.kind === 'file' || (entry.kind === 'symlink' && entry.resolves === 'file'))
}

/**
 * The visible files, reusing the last list when every changed path is a file that was already in it (an edit,
 * the usual change): no file came or went, so listing 15,000 paths again would give the same list. With a
 * slicer (see time-slice.ts) a list made again is made in time slices.
 */
function visibleFilesReusing(tree: ProjectTree, patterns: readonly string[], caches: SnapshotCaches, changed: ReadonlySet<string> | null): string[]
function visibleFilesReusing(
  tree: ProjectTree,
  patterns: readonly string[],
  caches: SnapshotCaches,
  changed: ReadonlySet<string> | null,
  slice: TimeSlice
): Promise<string[]>
function visibleFilesReusing(
  tree: ProjectTree,
  patterns: readonly string[],
  caches: SnapshotCaches,
  changed: ReadonlySet<string> | null,
  slice?: TimeSlice
): string[] | Promise<string[]> {
  const last = caches.visible
  if (last && changed && last.patterns === patterns) {
    const patched = patchedVisibleFiles(last, tree, patterns, changed)
    if (patched) {
      last.files = patched
      return slice ? Promise.resolve(patched) : patched
    }
  }
  const keep = (files: string[]): string[] => {
    caches.visible = { patterns, files, set: new Set(files) }
    return files
  }
  const visible = visibleFileLister(tree, patterns)
  if (slice) return forEachEntrySliced(tree, slice, visible.add).then(() => keep(visible.result()))
  for (const [path, entry] of tree) visible.add(path, entry)
  return keep(visible.result())
}

/**
 * The last list with files that came or went added or removed (a new skill): possible when every changed path
 * is a file now or was a listed one before. A changed folder brings or takes files that are not themselves in
 * `changed`, so it makes this give up (null) and the list is made again. The set follows the new list in place
 * (a new set of 20,000 paths would cost a millisecond); the old list, which a snapshot holds, is not changed.
 */
function patchedVisibleFiles(
  last: { files: string[]; set: Set<string> },
  tree: ProjectTree,
  patterns: readonly string[],
  changed: ReadonlySet<string>
): string[] | null {
  const added: string[] = []
  const removed = new Set<string>()
  let visibility: ReturnType<typeof visibilityFor> | null = null
  for (const path of changed) {
    const isFile = isFileInside(tree.get(path))
    if (!isFile && !last.set.has(path)) return null
    if (isFile && !last.set.has(path)) {
      visibility ??= visibilityFor(patterns)
      if (!visibility.isHidden(path, 'file')) added.push(path)
    } else if (!isFile) removed.add(path)
  }
  if (added.length === 0 && removed.size === 0) return last.files
  let files: string[]
  if (added.length === 1 && removed.size === 0) {
    // One new file, the usual case (a new skill): one copy with it in place, half the cost of a copy and a splice.
    files = last.files.toSpliced(sortedIndex(last.files, added[0]), 0, added[0])
  } else {
    files = removed.size > 0 ? last.files.filter((path) => !removed.has(path)) : last.files.slice()
    // Into place, not a sort of the whole list: a warehouse lists ~20,000 files.
    for (const path of added) files.splice(sortedIndex(files, path), 0, path)
  }
  for (const path of removed) last.set.delete(path)
  for (const path of added) last.set.add(path)
  return files
}

/** Where `path` goes in the sorted `paths` (the order of Array.prototype.sort on strings). */
function sortedIndex(paths: readonly string[], path: string): number {
  let low = 0
  let high = paths.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (paths[middle] < path) low = middle + 1
    else high = middle
  }
  return low
}

/** The visible files of a tree, entry by entry (`add`), then `result()`, sorted. */
function visibleFileLister(tree: ProjectTree, patterns: readonly string[]): { add: (path: string, entry: TreeEntry) => void; result: () => string[] } {
  const visibility = visibilityFor(patterns)
  const files: string[] = []
  return {
    add: (path, entry) => {
      if (isFileInside(entry) && !visibility.isHidden(path, 'file')) files.push(path)
    },
    result: () => {
      visibility.trim(tree.size)
      return files.sort()
    }
  }
}

function contextFoldersOf(tree: ProjectTree): ProjectSnapshot['contextFolders'] {
  const exists = (name: ContextFolder): boolean => tree.get(name)?.kind === 'dir'
  return {
    databases: exists('databases'),
    docs: exists('docs'),
    semantics: exists('semantics'),
    repos: exists('repos'),
    queries: exists('queries')
  }
}

function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => (a.file === b.file ? compare(a.problem, b.problem) : compare(a.file, b.file)))
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index])
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
