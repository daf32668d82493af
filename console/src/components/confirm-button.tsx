// A destructive action asked twice: its button, then in its place the question with "yes" and "keep"
// (focus moves to "keep", the safe answer). No window.confirm: a native dialog cannot be styled or
// described, and blocks the page.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface ConfirmButtonProps {
  readonly label: string;
  readonly question: ComponentChildren;
  readonly confirmLabel: string;
  readonly onConfirm: () => Promise<void>;
}

export function ConfirmButton({ label, question, confirmLabel, onConfirm }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  const confirm = async (): Promise<void> => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <div class="confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
        <button type="button" ref={keep} disabled={busy} onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}
