// Shown only when an attached file is an image and the model has no vision: without it, models tend to
// describe an image from its name as if they had seen it.

export const visionNotePartial = [
  'Note: the context includes image files, but the current model has NO vision capability, so you cannot see what they show.',
  'Do not guess an image from its name or summary: say that you cannot see it and ask the user to describe it, or to switch to a vision-capable model.',
  ''
].join('\n')
