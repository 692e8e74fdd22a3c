"use client";
/**
 * A button whose action cannot be undone, in two steps: the first press asks, in words beside it,
 * and offers the action and Cancel; only the second does it. No window.confirm: the question is
 * part of the page (a screen reader hears it as it appears, focus moves to the action), Escape or
 * Cancel takes it back and returns focus to the first button.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";

export function ConfirmButton({
  label,
  accessibleLabel,
  question,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  /** The first button's word ("Revoke"). */
  label: string;
  /** Its name for screen readers when the word alone does not say what it acts on. */
  accessibleLabel?: string;
  /** What the second step asks ("Revoke this embed? It stops answering at once, for good."). */
  question: string;
  /** The second button's word ("Revoke for good"). */
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (wasAsking.current) first.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking)
    return (
      <button
        ref={first}
        type="button"
        className="secondary"
        disabled={disabled}
        aria-label={accessibleLabel}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  // Escape on either button takes the question back.
  const takeBackOnEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape") setAsking(false);
  };
  return (
    <span className="confirm-step">
      <span id={questionId} role="alert">
        {question}
      </span>{" "}
      <button
        ref={confirm}
        type="button"
        className="danger"
        aria-describedby={questionId}
        disabled={disabled}
        onKeyDown={takeBackOnEscape}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>{" "}
      <button type="button" onKeyDown={takeBackOnEscape} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
