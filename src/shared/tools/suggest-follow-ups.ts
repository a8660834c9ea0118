// `suggest_follow_ups`: questions the user may ask next, shown as chips after the answer.

export interface SuggestFollowUpsArgs {
  suggestions: string[]
}

export type SuggestFollowUpsResult = SuggestFollowUpsArgs
