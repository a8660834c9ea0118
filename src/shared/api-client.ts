import type { GlassboxApi } from './api'

/** Sends one operation to the main process (IPC or HTTP) and resolves with its result. */
export type OperationCall = <T>(operation: string, input?: unknown) => Promise<T>

/**
 * Every request/response operation of the API over one transport's `call`; the desktop preload and web
 * mode differ only in how a call travels and how push events arrive (`subscribe`, which each adds).
 */
export function createApiCalls(call: OperationCall): Omit<GlassboxApi, 'subscribe'> {
  return {
    getProject: () => call('getProject'),
    openProject: (input) => call('openProject', input),
    listRecentProjects: () => call('listRecentProjects'),
    listChats: (input) => call('listChats', input),
    createChat: (input) => call('createChat', input),
    getChat: (input) => call('getChat', input),
    deleteChat: (input) => call('deleteChat', input),
    renameChat: (input) => call('renameChat', input),
    forkChat: (input) => call('forkChat', input),
    sendMessage: (input) => call('sendMessage', input),
    stopRun: (input) => call('stopRun', input),
    regenerate: (input) => call('regenerate', input),
    editAndResend: (input) => call('editAndResend', input),
    answerClarification: (input) => call('answerClarification', input),
    previewPrompt: (input) => call('previewPrompt', input),
    getRun: (input) => call('getRun', input),
    listMemories: (input) => call('listMemories', input),
    addMemory: (input) => call('addMemory', input),
    editMemory: (input) => call('editMemory', input),
    setMemoryEnabled: (input) => call('setMemoryEnabled', input),
    deleteMemory: (input) => call('deleteMemory', input),
    getSettings: () => call('getSettings'),
    updateSettings: (input) => call('updateSettings', input),
    listModels: () => call('listModels'),
    syncProject: (input) => call('syncProject', input),
    listEvaluationCases: (input) => call('listEvaluationCases', input),
    listDataSources: (input) => call('listDataSources', input),
    runEvaluation: (input) => call('runEvaluation', input),
    cancelEvaluation: (input) => call('cancelEvaluation', input),
    listEvaluations: (input) => call('listEvaluations', input),
    getEvaluation: (input) => call('getEvaluation', input),
    compareEvaluations: (input) => call('compareEvaluations', input),
    cancelSync: (input) => call('cancelSync', input),
    setFeedback: (input) => call('setFeedback', input),
    listFeedback: (input) => call('listFeedback', input),
    previewTestCase: (input) => call('previewTestCase', input),
    saveTestCase: (input) => call('saveTestCase', input),
    initProject: (input) => call('initProject', input),
    checkSetup: (input) => call('checkSetup', input),
    getTrust: (input) => call('getTrust', input),
    approveTrust: (input) => call('approveTrust', input),
    revokeTrust: (input) => call('revokeTrust', input),
    getMcpStatus: (input) => call('getMcpStatus', input),
    restartMcpServer: (input) => call('restartMcpServer', input)
  }
}
