import { DuckDBTypeId, type DuckDBType, type Json } from '@duckdb/node-api'
import { capJson, pythonFloat, pythonJson } from '../table-content'

// DuckDB types under the names nao writes in columns.md (nao reads schemas through ibis), and DuckDB values
// as preview cells.

export function duckTypeName(type: DuckDBType): string {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'boolean'
    case DuckDBTypeId.TINYINT:
      return 'int8'
    case DuckDBTypeId.SMALLINT:
      return 'int16'
    case DuckDBTypeId.INTEGER:
      return 'int32'
    case DuckDBTypeId.BIGINT:
      return 'int64'
    case DuckDBTypeId.UTINYINT:
      return 'uint8'
    case DuckDBTypeId.USMALLINT:
      return 'uint16'
    case DuckDBTypeId.UINTEGER:
      return 'uint32'
    case DuckDBTypeId.UBIGINT:
      return 'uint64'
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return 'decimal(38, 0)'
    case DuckDBTypeId.FLOAT:
      return 'float32'
    case DuckDBTypeId.DOUBLE:
      return 'float64'
    case DuckDBTypeId.DECIMAL:
      return `decimal(${type.width}, ${type.scale})`
    case DuckDBTypeId.VARCHAR:
      return type.alias === 'JSON' ? 'json' : 'string'
    case DuckDBTypeId.ENUM:
      return 'string'
    case DuckDBTypeId.BLOB:
      return 'binary'
    case DuckDBTypeId.DATE:
      return 'date'
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_TZ:
    case DuckDBTypeId.TIME_NS:
      return 'time'
    case DuckDBTypeId.TIMESTAMP_S:
      return 'timestamp(0)'
    case DuckDBTypeId.TIMESTAMP_MS:
      return 'timestamp(3)'
    case DuckDBTypeId.TIMESTAMP:
      return 'timestamp(6)'
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'timestamp(9)'
    case DuckDBTypeId.TIMESTAMP_TZ:
      return "timestamp('UTC', 6)"
    case DuckDBTypeId.INTERVAL:
      return "interval('us')"
    case DuckDBTypeId.UUID:
      return 'uuid'
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return `array<${duckTypeName(type.valueType)}>`
    case DuckDBTypeId.MAP:
      return `map<${duckTypeName(type.keyType)}, ${duckTypeName(type.valueType)}>`
    case DuckDBTypeId.STRUCT:
      return `struct<${type.entryNames.map((name, i) => `${name}: ${duckTypeName(type.entryTypes[i])}`).join(', ')}>`
    default:
      return type.toString().toLowerCase()
  }
}

/** True for the types whose preview cells are cut in SQL, so a 10 MB text never reaches JavaScript. */
export function isTextType(type: DuckDBType): boolean {
  return type.typeId === DuckDBTypeId.VARCHAR || type.typeId === DuckDBTypeId.BLOB
}

const INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.BIGNUM,
  DuckDBTypeId.DECIMAL
])

/** A preview cell as JSON text. Integers and decimals stay numbers (the JSON converter gives big ones as text). */
export function duckCellJson(type: DuckDBType, value: Json): string {
  if (value === null) return 'null'
  if (INTEGER_TYPES.has(type.typeId) && /^-?\d+(\.\d+)?$/.test(String(value))) return String(value)
  if ((type.typeId === DuckDBTypeId.DOUBLE || type.typeId === DuckDBTypeId.FLOAT) && typeof value === 'number') {
    return pythonFloat(value)
  }
  // nao's previews come through pandas, which shows a date as a midnight timestamp.
  if (type.typeId === DuckDBTypeId.DATE && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return JSON.stringify(`${value} 00:00:00`)
  }
  // Text was already cut in SQL (its marker would be cut again here); nested values are cut now.
  return isTextType(type) ? pythonJson(value) : capJson(pythonJson(value))
}
