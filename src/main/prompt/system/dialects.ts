import type { Connection } from '../../project/types'
import type { Component } from '../markdown/jsx-runtime'
import type { DialectProps } from '../../engines/dialect-rules'
import { engineDialects } from '../../engines/registry'
import { BigQueryRules, ClickHouseRules, RedshiftRules, SnowflakeRules, TsqlRules } from './dialects-remote'

interface Dialect {
  /** Connection types (lower case) written in this dialect. */
  types: readonly string[]
  Rules: Component<DialectProps>
}

// Fixed order, so the prompt does not change when connections are listed in another order: the engines
// Glassbox runs (in registry order), then warehouses it only describes.
const DIALECTS: readonly Dialect[] = [
  ...engineDialects(),
  { types: ['bigquery'], Rules: BigQueryRules },
  { types: ['mssql', 'fabric', 'sqlserver'], Rules: TsqlRules },
  { types: ['redshift'], Rules: RedshiftRules },
  { types: ['clickhouse'], Rules: ClickHouseRules },
  { types: ['snowflake'], Rules: SnowflakeRules }
]

/** The dialects among the connections (types compared case-insensitively), each with its connections. */
export function dialectsFor(connections: readonly Connection[]): { Rules: Component<DialectProps>; connections: Connection[] }[] {
  return DIALECTS.map((dialect) => ({
    Rules: dialect.Rules,
    connections: connections.filter((connection) => dialect.types.includes(connection.type.toLowerCase()))
  })).filter((match) => match.connections.length > 0)
}
