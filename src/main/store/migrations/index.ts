import { checkRegistry, type Migration } from '../migrate'
import { initial } from './0010-initial'
import { memoryTokens } from './0020-memory-tokens'
import { memoryCounts } from './0030-memory-counts'
import { evaluations } from './0060-evaluations'

/** Every schema step in order. Append only: a released step is never edited, a new file fixes it. */
export const MIGRATIONS: readonly Migration[] = [initial, memoryTokens, memoryCounts, evaluations]

checkRegistry(MIGRATIONS)
