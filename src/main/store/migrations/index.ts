import { checkRegistry, type Migration } from '../migrate'
import { initial } from './0010-initial'
import { memoryTokens } from './0020-memory-tokens'
import { memoryCounts } from './0030-memory-counts'
import { tokenScales } from './0040-token-scales'
import { runRequests } from './0050-run-requests'
import { evaluations } from './0060-evaluations'
import { answerVersions } from './0070-answer-versions'
import { chatListIndex } from './0080-chat-list-index'
import { runOwner } from './0090-run-owner'
import { trustApprovals } from './0100-trust-approvals'
import { evaluationVerdicts } from './0105-evaluation-verdicts'
import { feedback } from './0110-feedback'
import { tokenCounts } from './0115-token-counts'
import { servedModel } from './0120-served-model'
import { dropQueryResults } from './0130-drop-query-results'

/** Every schema step in order. Append only: a released step is never edited, a new file fixes it. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  memoryTokens,
  memoryCounts,
  tokenScales,
  runRequests,
  evaluations,
  answerVersions,
  chatListIndex,
  runOwner,
  trustApprovals,
  evaluationVerdicts,
  feedback,
  tokenCounts,
  servedModel,
  dropQueryResults
]

checkRegistry(MIGRATIONS)
