import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button } from './button.tsx';
import { ConfirmDialog, syncConfirmDialog } from './confirm-dialog.tsx';

function render(props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) {
  return renderToStaticMarkup(
    <ConfirmDialog
      open={false}
      title="¿Revocar la clave ERP?"
      confirmLabel="Revocar clave"
      onConfirm={() => {}}
      onCancel={() => {}}
      {...props}
    >
      <p>Las integraciones que la usan dejarán de funcionar.</p>
    </ConfirmDialog>,
  );
}

test('ConfirmDialog: a modal dialog named by its title and described by what will change', () => {
  const html = render();
  const dialog =
    /<dialog class="dialog" aria-modal="true" aria-labelledby="([^"]+)" aria-describedby="([^"]+)">/.exec(
      html,
    );
  assert.ok(dialog, html);
  const [, titleId, bodyId] = dialog;
  assert.ok(html.includes(`<h2 id="${titleId}" class="title">¿Revocar la clave ERP?</h2>`), html);
  assert.ok(
    html.includes(
      `<div id="${bodyId}" class="body"><p>Las integraciones que la usan dejarán de funcionar.</p></div>`,
    ),
    html,
  );
});

test('ConfirmDialog: "Cancelar" first and focused; the confirm button names the action, danger unless primary', () => {
  const html = render();
  const buttons = [...html.matchAll(/<button ([^>]*)>([^<]*)<\/button>/g)].map(([, attributes, label]) => ({
    attributes: attributes ?? '',
    label,
  }));
  assert.deepEqual(
    buttons.map((button) => button.label),
    ['Cancelar', 'Revocar clave'],
  );
  assert.match(buttons[0]?.attributes ?? '', /autofocus=""/);
  assert.match(buttons[0]?.attributes ?? '', /data-confirm-cancel=""/);
  assert.match(buttons[0]?.attributes ?? '', /class="button secondary"/);
  assert.match(buttons[1]?.attributes ?? '', /class="button danger"/);
  assert.match(render({ tone: 'primary' }), /class="button primary">Revocar clave<\/button>/);
  assert.match(render({ cancelLabel: 'Volver' }), />Volver<\/button>/);
  assert.match(render({ wide: true }), /<dialog class="dialog wide" aria-modal="true"/);
});

test('ConfirmDialog: while busy, Cancel is disabled and the confirm button says it is working', () => {
  const html = render({ open: true, busy: true });
  assert.match(
    html,
    /<button autofocus="" data-confirm-cancel="" type="button" disabled="" class="button secondary">Cancelar<\/button>/,
  );
  assert.match(
    html,
    /<button type="button" disabled="" aria-busy="true" class="button danger">Revocar clave<\/button>/,
  );
});

/** A fake element that records focus calls in `log`. */
function focusable(name: string, log: string[], connected = true) {
  return { isConnected: connected, focus: () => log.push(`focus ${name}`) };
}

function fakeDialog(log: string[]) {
  const cancel = focusable('cancel', log);
  return {
    open: false,
    showModal() {
      this.open = true;
      log.push('showModal');
    },
    close() {
      this.open = false;
      log.push('close');
    },
    querySelector: (selector: string) => (selector === '[data-confirm-cancel]' ? cancel : null),
  };
}

test('syncConfirmDialog: opening shows it modally and focuses Cancel; closing returns the focus to the trigger', () => {
  const log: string[] = [];
  const dialog = fakeDialog(log);
  const trigger = { current: null as { focus(): void; isConnected?: boolean } | null };
  const button = focusable('trigger', log);
  syncConfirmDialog({ dialog, open: true, activeElement: button, trigger });
  assert.deepEqual(log, ['showModal', 'focus cancel']);
  assert.equal(trigger.current, button);
  // Rendering again while open changes nothing.
  syncConfirmDialog({ dialog, open: true, activeElement: null, trigger });
  assert.deepEqual(log, ['showModal', 'focus cancel']);
  syncConfirmDialog({ dialog, open: false, activeElement: null, trigger });
  assert.deepEqual(log, ['showModal', 'focus cancel', 'close', 'focus trigger']);
  assert.equal(trigger.current, null);
  // Closed already: nothing to do.
  syncConfirmDialog({ dialog, open: false, activeElement: null, trigger });
  assert.equal(log.length, 4);
});

test('syncConfirmDialog: a trigger no longer on the page (its row was removed) is not focused', () => {
  const log: string[] = [];
  const dialog = fakeDialog(log);
  const trigger = { current: null as { focus(): void; isConnected?: boolean } | null };
  syncConfirmDialog({ dialog, open: true, activeElement: focusable('gone', log, false), trigger });
  syncConfirmDialog({ dialog, open: false, activeElement: null, trigger });
  assert.deepEqual(log, ['showModal', 'focus cancel', 'close']);
  // Nothing focused before opening (the body): nothing to give the focus back to.
  syncConfirmDialog({ dialog, open: true, activeElement: null, trigger });
  syncConfirmDialog({ dialog, open: false, activeElement: null, trigger });
  assert.deepEqual(log.slice(3), ['showModal', 'focus cancel', 'close']);
});

test('Button: an action that cannot apply yet is disabled and described by its reason, shown next to it', () => {
  const html = renderToStaticMarkup(
    <Button disabledReason="Se habilita después de la declaración jurada (paso 13).">
      Solicitar activación de producción
    </Button>,
  );
  const match =
    /^<span class="withReason"><button type="button" disabled="" aria-describedby="([^"]+)" class="button primary">Solicitar activación de producción<\/button><span id="([^"]+)" class="reason" data-disabled-reason="">Se habilita después de la declaración jurada \(paso 13\)\.<\/span><\/span>$/.exec(
      html,
    );
  assert.ok(match, html);
  assert.equal(match[1], match[2]);
  // No reason: the plain button, enabled.
  assert.equal(
    renderToStaticMarkup(<Button disabledReason={null}>Reiniciar</Button>),
    '<button type="button" class="button primary">Reiniciar</button>',
  );
  // Its own description is kept alongside the reason.
  assert.match(
    renderToStaticMarkup(
      <Button aria-describedby="ayuda" disabledReason="Nada que reiniciar.">
        Reiniciar
      </Button>,
    ),
    /aria-describedby="ayuda [^"]+"/,
  );
});
