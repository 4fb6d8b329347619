/** @jsxRuntime automatic */
'use client';
import { useState } from 'react';
import { Button } from './button.tsx';

/**
 * Copies `value` to the clipboard (a new API key, shown once) and says so in a polite live region.
 * Falls back to a selection copy where the Clipboard API is missing.
 */
export function CopyButton(props: { value: string; label?: string; copiedLabel?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
    } catch {
      const area = document.createElement('textarea');
      area.value = props.value;
      area.setAttribute('readonly', '');
      area.className = 'ecf-visually-hidden';
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
  };
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => void copy()}>
        {copied ? (props.copiedLabel ?? 'Copiado') : (props.label ?? 'Copiar')}
      </Button>
      <span role="status" className="ecf-visually-hidden">
        {copied ? (props.copiedLabel ?? 'Copiado al portapapeles') : ''}
      </span>
    </>
  );
}
