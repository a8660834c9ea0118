import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'
import { syncProject } from './sync'
import { SYNC_MANIFEST } from './table-folder'

// #11 B8 and #13.9: sync writes only at realpaths inside the project, and overwrites only files it wrote
// itself. Real symlinks to a real outside folder; nao's own preview.md files (with their template footer).

const TABLES_DIR = 'databases/type=duckdb/database=jaffle_shop/schema=main'
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function temp<T extends { cleanup: () => void }>(made: T): T {
  cleanups.push(made.cleanup)
  return made
}

/** Every file below `dir` with its content and mtime: what "nothing changed there" means. */
function everything(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else files[relative(dir, path)] = `${statSync(path).mtimeMs} ${readFileSync(path, 'utf8')}`
    }
  }
  walk(dir)
  return files
}

async function addColumnToEveryTable(project: string): Promise<void> {
  const instance = await DuckDBInstance.create(join(project, 'jaffle_shop.duckdb'))
  const connection = await instance.connect()
  const tables = (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE NOT internal')).getRowsJson()
  for (const [table] of tables) await connection.run(`ALTER TABLE "${String(table)}" ADD COLUMN synced_at VARCHAR DEFAULT 'v2'`)
  connection.closeSync()
  instance.closeSync()
}

describe('sync writes only inside the project (#11 B8)', () => {
  it('refuses databases/ linked to an outside folder: nothing created, changed or deleted there', async () => {
    const project = temp(copyNaoLayout())
    const outside = temp(makeTempDir('glassbox-outside-'))
    // The outside folder holds a table folder sync would otherwise rewrite, and one it would remove.
    renameSync(join(project.dir, 'databases'), join(outside.dir, 'databases'))
    mkdirSync(join(outside.dir, 'databases', 'type=duckdb/database=jaffle_shop/schema=main/table=gone'), { recursive: true })
    writeFileSync(join(outside.dir, 'databases', 'type=duckdb/database=jaffle_shop/schema=main/table=gone/columns.md'), 'victim\n')
    symlinkSync(join(outside.dir, 'databases'), join(project.dir, 'databases'))
    const before = everything(outside.dir)

    const result = await syncProject(project.dir)

    expect(everything(outside.dir)).toEqual(before)
    expect(result.errors).toEqual([
      'duckdb-jaffle-shop: databases/type=duckdb/database=jaffle_shop leads outside the project (through a symlink); sync writes only inside the project, so nothing was written or removed there'
    ])
    expect(result.errors.join('\n')).not.toContain(outside.dir)
    expect(result.changed).toEqual([])
  })

  it('refuses a schema folder linked outside, table by table, and still syncs the rest', async () => {
    const project = temp(copyNaoLayout())
    const outside = temp(makeTempDir('glassbox-outside-'))
    const schemaDir = join(project.dir, TABLES_DIR)
    renameSync(schemaDir, join(outside.dir, 'schema=main'))
    symlinkSync(join(outside.dir, 'schema=main'), schemaDir)
    const before = everything(outside.dir)

    const result = await syncProject(project.dir)

    expect(everything(outside.dir)).toEqual(before)
    expect(result.errors.length).toBe(8)
    for (const error of result.errors) expect(error).toMatch(/leads outside the project \(through a symlink\)/)
  })

  it('the CLI exits non-zero with the refusal and writes nothing outside', async () => {
    const project = temp(copyNaoLayout())
    const outside = temp(makeTempDir('glassbox-outside-'))
    rmSync(join(project.dir, 'databases'), { recursive: true })
    symlinkSync(outside.dir, join(project.dir, 'databases'))
    const result = await runCli(['sync', '--project', project.dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/leads outside the project/)
    expect(readdirSync(outside.dir)).toEqual([])
  })
})

describe('sync overwrites only files it wrote itself (#13.9)', () => {
  it("leaves nao's own preview.md (with its template footer) untouched and says so", async () => {
    const project = temp(copyNaoLayout())
    const previews = Object.fromEntries(
      readdirSync(join(NAO_LAYOUT, TABLES_DIR)).map((table) => [table, readFileSync(join(NAO_LAYOUT, TABLES_DIR, table, 'preview.md'), 'utf8')])
    )
    expect(Object.values(previews).every((text) => text.includes('Generated by nao sync'))).toBe(true)

    const result = await syncProject(project.dir)

    for (const [table, text] of Object.entries(previews)) expect(readFileSync(join(project.dir, TABLES_DIR, table, 'preview.md'), 'utf8')).toBe(text)
    expect(result.changedBySomeoneElse.sort()).toEqual(Object.keys(previews).map((table) => `${TABLES_DIR}/${table}/preview.md`).sort())
    // columns.md and description.md are byte for byte what sync writes: taken over, not changed.
    expect(result.changed).toEqual([])
    expect(readdirSync(join(project.dir, TABLES_DIR, 'table=orders')).sort()).toEqual([SYNC_MANIFEST, 'columns.md', 'description.md', 'preview.md'])
  })

  it('rewrites its own files when the data changes, but not one an analyst edited since', async () => {
    const project = temp(copyNaoLayout())
    rmSync(join(project.dir, 'databases'), { recursive: true })
    await syncProject(project.dir)
    const edited = join(project.dir, TABLES_DIR, 'table=orders', 'columns.md')
    writeFileSync(edited, readFileSync(edited, 'utf8') + '\nMy note: amount is in cents.\n')
    const editedText = readFileSync(edited, 'utf8')
    await addColumnToEveryTable(project.dir)

    const result = await syncProject(project.dir)

    expect(readFileSync(edited, 'utf8')).toBe(editedText)
    expect(result.changedBySomeoneElse).toEqual([`${TABLES_DIR}/table=orders/columns.md`])
    expect(readFileSync(join(project.dir, TABLES_DIR, 'table=customers', 'columns.md'), 'utf8')).toContain('synced_at')
    expect(result.changed).toContain(`${TABLES_DIR}/table=customers/columns.md`)
    expect(result.changed).toContain(`${TABLES_DIR}/table=orders/preview.md`)
    expect(result.changed).not.toContain(`${TABLES_DIR}/table=orders/columns.md`)
  })

  it('the CLI lists what it changed and what it left alone', async () => {
    const project = temp(copyNaoLayout())
    const result = await runCli(['sync', '--project', project.dir])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('left untouched (changed by someone else, not written by sync):')
    expect(result.stdout).toContain(`${TABLES_DIR}/table=orders/preview.md`)
  })
})
