import * as z from '../../shared/zod-mini'
import { apiInputs } from '../../shared/api-inputs'
import type { GlassboxApi } from '../../shared/api'

// One table of every operation the UI may call, shared by the IPC handlers and the web server: both
// validate the raw input with the operation's schema here, so no transport can skip validation.

const noInput = z.strictObject({})

/** Operations without input still accept (and check) an empty object. */
const allInputs = {
  getProject: noInput,
  getSettings: noInput,
  listModels: noInput,
  listRecentProjects: noInput,
  ...apiInputs
} as const

export type OperationName = keyof typeof allInputs

export const OPERATION_NAMES: readonly string[] = Object.keys(allInputs)

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(allInputs, name)
}

/** A bad input, described for a person: which operation, which fields, what was wrong. */
export class InvalidInputError extends Error {
  constructor(
    readonly operation: string,
    readonly issues: { path: string; message: string }[]
  ) {
    super(`Invalid input for ${operation}: ${issues.map((issue) => `${issue.path || '(input)'}: ${issue.message}`).join('; ')}`)
    this.name = 'InvalidInputError'
  }
}

function parse<S extends z.ZodMiniType>(operation: OperationName, schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  throw new InvalidInputError(
    operation,
    result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
  )
}

type Handler = (input: unknown) => Promise<unknown>

/** Every operation as `(rawInput) => result`, validating the input before the service sees it. */
export function createOperations(api: GlassboxApi): Record<OperationName, Handler> {
  const i = allInputs
  return {
    getProject: async (input) => (parse('getProject', i.getProject, input), api.getProject()),
    getSettings: async (input) => (parse('getSettings', i.getSettings, input), api.getSettings()),
    listModels: async (input) => (parse('listModels', i.listModels, input), api.listModels()),
    listRecentProjects: async (input) => (parse('listRecentProjects', i.listRecentProjects, input), api.listRecentProjects()),
    openProject: (input) => api.openProject(parse('openProject', i.openProject, input)),
    listChats: (input) => api.listChats(parse('listChats', i.listChats, input)),
    createChat: (input) => api.createChat(parse('createChat', i.createChat, input)),
    getChat: (input) => api.getChat(parse('getChat', i.getChat, input)),
    deleteChat: (input) => api.deleteChat(parse('deleteChat', i.deleteChat, input)),
    renameChat: (input) => api.renameChat(parse('renameChat', i.renameChat, input)),
    forkChat: (input) => api.forkChat(parse('forkChat', i.forkChat, input)),
    sendMessage: (input) => api.sendMessage(parse('sendMessage', i.sendMessage, input)),
    stopRun: (input) => api.stopRun(parse('stopRun', i.stopRun, input)),
    regenerate: (input) => api.regenerate(parse('regenerate', i.regenerate, input)),
    editAndResend: (input) => api.editAndResend(parse('editAndResend', i.editAndResend, input)),
    answerClarification: (input) => api.answerClarification(parse('answerClarification', i.answerClarification, input)),
    previewPrompt: (input) => api.previewPrompt(parse('previewPrompt', i.previewPrompt, input)),
    getRun: (input) => api.getRun(parse('getRun', i.getRun, input)),
    listMemories: (input) => api.listMemories(parse('listMemories', i.listMemories, input)),
    addMemory: (input) => api.addMemory(parse('addMemory', i.addMemory, input)),
    editMemory: (input) => api.editMemory(parse('editMemory', i.editMemory, input)),
    setMemoryEnabled: (input) => api.setMemoryEnabled(parse('setMemoryEnabled', i.setMemoryEnabled, input)),
    deleteMemory: (input) => api.deleteMemory(parse('deleteMemory', i.deleteMemory, input)),
    updateSettings: (input) => api.updateSettings(parse('updateSettings', i.updateSettings, input)),
    syncProject: (input) => api.syncProject(parse('syncProject', i.syncProject, input)),
    listEvaluationCases: (input) => api.listEvaluationCases(parse('listEvaluationCases', i.listEvaluationCases, input)),
    listDataSources: (input) => api.listDataSources(parse('listDataSources', i.listDataSources, input)),
    runEvaluation: (input) => api.runEvaluation(parse('runEvaluation', i.runEvaluation, input)),
    cancelEvaluation: (input) => api.cancelEvaluation(parse('cancelEvaluation', i.cancelEvaluation, input)),
    listEvaluations: (input) => api.listEvaluations(parse('listEvaluations', i.listEvaluations, input)),
    getEvaluation: (input) => api.getEvaluation(parse('getEvaluation', i.getEvaluation, input)),
    compareEvaluations: (input) => api.compareEvaluations(parse('compareEvaluations', i.compareEvaluations, input)),
    cancelSync: (input) => api.cancelSync(parse('cancelSync', i.cancelSync, input)),
    setFeedback: (input) => api.setFeedback(parse('setFeedback', i.setFeedback, input)),
    listFeedback: (input) => api.listFeedback(parse('listFeedback', i.listFeedback, input)),
    previewTestCase: (input) => api.previewTestCase(parse('previewTestCase', i.previewTestCase, input)),
    saveTestCase: (input) => api.saveTestCase(parse('saveTestCase', i.saveTestCase, input)),
    initProject: (input) => api.initProject(parse('initProject', i.initProject, input)),
    checkSetup: (input) => api.checkSetup(parse('checkSetup', i.checkSetup, input)),
    getTrust: (input) => api.getTrust(parse('getTrust', i.getTrust, input)),
    approveTrust: (input) => api.approveTrust(parse('approveTrust', i.approveTrust, input)),
    revokeTrust: (input) => api.revokeTrust(parse('revokeTrust', i.revokeTrust, input)),
    getMcpStatus: (input) => api.getMcpStatus(parse('getMcpStatus', i.getMcpStatus, input)),
    restartMcpServer: (input) => api.restartMcpServer(parse('restartMcpServer', i.restartMcpServer, input))
  }
}

/** The message of anything thrown, without a stack trace. */
