import { plainPieces } from './plain-words'

/** Text with technical ids replaced by plain words; hovering one shows the id. */
export function PlainText({ text }: { text: string }): React.JSX.Element {
  return (
    <>
      {plainPieces(text).map((piece, index) =>
        piece.id ? (
          <span key={index} className="technical-id" title={piece.id}>
            {piece.text}
          </span>
        ) : (
          piece.text
        )
      )}
    </>
  )
}
