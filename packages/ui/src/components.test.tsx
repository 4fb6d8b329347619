import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { Banner } from './banner.tsx';
import { Button } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { EmptyState } from './empty-state.tsx';
import { PageHeader } from './page-header.tsx';
import { Select } from './select.tsx';
import { Table } from './table.tsx';
import { TextField } from './text-field.tsx';

test('TextField labels its input and ties the error to it', () => {
  const html = renderToStaticMarkup(
    <TextField
      id="email"
      name="email"
      label="Correo"
      error="Escriba un correo válido."
      hint="El de su trabajo"
    />,
  );
  assert.match(html, /<label for="email"[^>]*>Correo<\/label>/);
  assert.match(
    html,
    /<input id="email" aria-invalid="true" aria-describedby="email-hint email-error" class="control" name="email"\/>/,
  );
  assert.match(html, /<p id="email-error" class="error">Escriba un correo válido.<\/p>/);
  const clean = renderToStaticMarkup(<TextField id="name" name="name" label="Nombre" />);
  assert.doesNotMatch(clean, /aria-invalid|aria-describedby/);
});

test('Select lists its options and ties the error to it', () => {
  const html = renderToStaticMarkup(
    <Select
      id="role"
      name="role"
      label="Rol"
      defaultValue="developer"
      error="Elija un rol."
      options={[
        { value: 'owner', label: 'Propietario' },
        { value: 'developer', label: 'Desarrollador' },
      ]}
    />,
  );
  assert.match(html, /<label for="role"/);
  assert.match(html, /aria-describedby="role-error"/);
  assert.match(html, /<option value="developer" selected="">Desarrollador<\/option>/);
});

test('Table has a caption, column headers, row headers and an empty message', () => {
  const columns = [
    { header: 'Nombre', cell: (row: { name: string }) => row.name, rowHeader: true },
    { header: 'Total', cell: () => '1.00', numeric: true },
    { header: 'Fecha', cell: () => '27/11/2026 14:05', nowrap: true },
  ];
  const html = renderToStaticMarkup(
    <Table caption="Miembros" columns={columns} rows={[{ name: 'Ana' }]} rowKey={(row) => row.name} />,
  );
  assert.match(
    html,
    /<div class="wrapper" role="region" aria-labelledby="([^"]+)" tabindex="0"><table class="table"><caption id="\1" class="caption">Miembros<\/caption>/,
  );
  assert.match(html, /<th scope="col" class="numeric">Total<\/th>/);
  assert.match(html, /<th scope="row">Ana<\/th>/);
  assert.match(html, /<td class="nowrap">27\/11\/2026 14:05<\/td>/);
  const empty = renderToStaticMarkup(
    <Table caption="Miembros" columns={columns} rows={[]} rowKey={(row) => row.name} empty="Nadie aún." />,
  );
  assert.match(empty, /Nadie aún\./);
});

test('EmptyState says what to do next with one primary action; in a Table it replaces the grid', () => {
  const state = (
    <EmptyState title="Aún no hay claves." action={{ href: '#crear-clave', label: 'Crear una clave' }}>
      Cree una para llamar a la API.
    </EmptyState>
  );
  const html = renderToStaticMarkup(state);
  assert.match(
    html,
    /<p class="title">Aún no hay claves\.<\/p><p class="next">Cree una para llamar a la API\.<\/p>/,
  );
  assert.match(html, /<a href="#crear-clave" class="button primary">Crear una clave<\/a>/);
  assert.equal(html.match(/<a /g)?.length, 1);
  // Without an action (a role that cannot act), no link at all.
  assert.doesNotMatch(renderToStaticMarkup(<EmptyState title="Nada aún." />), /<a /);
  // In a Table: a block (a paragraph cannot hold paragraphs), never rendered with rows.
  const columns = [{ header: 'Nombre', cell: (row: { name: string }) => row.name }];
  const empty = renderToStaticMarkup(
    <Table caption="Claves" columns={columns} rows={[]} rowKey={(row) => row.name} empty={state} />,
  );
  assert.match(empty, /<\/table><div class="empty"><div class="emptyState">/);
  const full = renderToStaticMarkup(
    <Table
      caption="Claves"
      columns={columns}
      rows={[{ name: 'ERP' }]}
      rowKey={(row) => row.name}
      empty={state}
    />,
  );
  assert.doesNotMatch(full, /Crear una clave/);
});

test('Banner is an alert for warnings and dangers, a status otherwise', () => {
  assert.match(renderToStaticMarkup(<Banner tone="danger" title="Error" />), /role="alert"/);
  assert.match(renderToStaticMarkup(<Banner tone="success">Hecho</Banner>), /role="status"/);
});

test('Button defaults to type=button and marks a busy action', () => {
  assert.match(
    renderToStaticMarkup(<Button>Guardar</Button>),
    /<button type="button" class="button primary">/,
  );
  assert.match(renderToStaticMarkup(<Button busy>Guardar</Button>), /disabled="" aria-busy="true"/);
});

test('PageHeader holds the page heading; ConfirmDialog names itself by its title', () => {
  assert.match(renderToStaticMarkup(<PageHeader title="Miembros" />), /<h1 class="title">Miembros<\/h1>/);
  const dialog = renderToStaticMarkup(
    <ConfirmDialog
      open={false}
      title="¿Quitar?"
      confirmLabel="Quitar"
      onConfirm={() => {}}
      onCancel={() => {}}
    >
      Pierde el acceso.
    </ConfirmDialog>,
  );
  assert.match(
    dialog,
    /<dialog class="dialog" aria-modal="true" aria-labelledby="[^"]+" aria-describedby="[^"]+">/,
  );
  assert.match(dialog, /Cancelar<\/button>/);
});
