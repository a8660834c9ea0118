import { relative } from 'node:path'
import type { DatabaseConfig } from '../../project/types'
import { DuckDbRules } from '../duckdb/dialect'
import { createDuckDbHost } from '../duckdb'
import type { Engine } from '../engine'
import { dataFileDatabaseName, dataFileFormat, dataFileReader, dataFileTableName, declaredDataFormat } from './data-files'

// CSV, Parquet and JSON files (one file or a glob inside the project), each a table read through an
// in-memory DuckDB that can read only the project's visible data files. nao projects declare CSVs as type
// duckdb: the file's extension decides first.

/** The id of the in-memory DuckDB that reads the project's data files (declared ones as views). */
export const PROJECT_FILES_ID = 'project_files'

const claims = (config: Pick<DatabaseConfig, 'type' | 'path'>): boolean => declaredDataFormat(config) !== null

export const filesEngine: Engine = {
  id: 'files',
  label: 'CSV / Parquet / JSON files',
  configTypes: ['csv', 'parquet', 'json'],
  folderTypes: ['csv', 'parquet', 'json'],
  readOnly: 'read through an in-memory DuckDB locked like a DuckDB file: SELECTs only, external access limited to the project\'s data files, configuration locked',
  dialect: { types: [], Rules: DuckDbRules },
  claims,
  discover: (config, projectRoot) =>
    config.path && claims(config)
      ? { id: config.name, engine: 'files', path: '', file: relative(projectRoot, config.path).split('\\').join('/'), aliases: [dataFileDatabaseName(config)] }
      : null,
  implicitDatabase: (found, projectFiles) => {
    // Every DuckDB database reads the project's files too; without one, tables kept as CSV or Parquet files
    // still get an engine.
    const hasDuckDb = found.some((database) => database.engine === 'duckdb' || database.engine === 'files')
    const hasDataFiles = projectFiles.some((file) => dataFileFormat(file) === 'csv' || dataFileFormat(file) === 'parquet')
    return !hasDuckDb && hasDataFiles ? { id: PROJECT_FILES_ID, engine: 'files', path: '', file: '.' } : null
  },
  createHost: (context) => {
    const views = context.databases.flatMap((config) => {
      const format = declaredDataFormat(config)
      return format && config.path ? [{ name: dataFileTableName(config), select: `SELECT * FROM ${dataFileReader(config.path, format)}` }] : []
    })
    return createDuckDbHost(context, () => '', views)
  },
  catalog: {
    kind: 'file',
    acceptsGlob: true,
    open: (file, config, root) => {
      const format = declaredDataFormat(config)
      if (!format) throw new Error(`${config.name} is not a CSV, Parquet or JSON file`)
      return import('../duckdb/catalog').then(({ openDataFile }) => openDataFile(file, format, dataFileTableName(config), root))
    },
    databaseName: dataFileDatabaseName
  }
}
