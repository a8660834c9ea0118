import { h } from '../../prompt/markdown/jsx-runtime'
import { Code, ListItem } from '../../prompt/markdown/components'
import { DialectRules, type DialectProps } from '../dialect-rules'

// MySQL and MariaDB servers, queried in read-only transactions.

export function MySqlRules({ connections }: DialectProps) {
  return (
    <DialectRules id="mysql" name="MySQL" connections={connections}>
      <ListItem>
        Quote identifiers with backticks; use <Code>IFNULL(x, 0)</Code> for defaults.
      </ListItem>
      <ListItem>
        There is no FULL OUTER JOIN: combine a LEFT and a RIGHT JOIN with UNION. Format dates with{' '}
        <Code>DATE_FORMAT(d, '%Y-%m')</Code>.
      </ListItem>
      <ListItem>
        <Code>/</Code> gives a decimal even for integers (<Code>DIV</Code> truncates); dates shift with{' '}
        <Code>d - INTERVAL 7 DAY</Code> and compare with <Code>DATEDIFF(end, start)</Code> or{' '}
        <Code>TIMESTAMPDIFF(MONTH, start, end)</Code>; there is no <Code>date_trunc</Code>, <Code>ILIKE</Code> or{' '}
        <Code>FILTER</Code> (use <Code>SUM(CASE WHEN ... THEN 1 ELSE 0 END)</Code>).
      </ListItem>
      <ListItem>
        Each query is one SELECT (or WITH ... SELECT) run in a read-only transaction with a time limit; no{' '}
        <Code>INTO OUTFILE</Code>, user variables or locks.
      </ListItem>
    </DialectRules>
  )
}
