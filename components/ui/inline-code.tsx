/**
 * Text that marks code with backticks (`like_this`), as the error catalogue writes it, shown with
 * the code as <code> and the rest as text: never as HTML, so nothing in it can become markup.
 */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, i) =>
        // Odd pieces sat between backticks. Keys are positions: the text never reorders.
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, in order
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}
