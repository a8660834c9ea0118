// `clarification`: a question for the user with options to pick from; it ends the run.

export interface ClarificationArgs {
  question: string
  options: string[]
}

export type ClarificationResult = ClarificationArgs
