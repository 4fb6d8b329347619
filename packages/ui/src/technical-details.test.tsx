import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { TechnicalDetails } from './technical-details.tsx';

test('TechnicalDetails puts the sentence first and the raw text, escaped, behind a closed disclosure', () => {
  const html = renderToStaticMarkup(
    <TechnicalDetails
      technical={'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><h2>Service Unavailable</h2>'}
    >
      La DGII no respondió.
    </TechnicalDetails>,
  );
  assert.match(html, /<p class="sentence">La DGII no respondió.<\/p>/);
  assert.match(html, /<details class="details" data-technical-details="">/);
  assert.doesNotMatch(html, /<details[^>]* open/);
  assert.match(html, /<summary class="summary">Detalles técnicos<\/summary>/);
  assert.match(html, /<pre class="raw" tabindex="0">&lt;!DOCTYPE HTML PUBLIC/);
  assert.doesNotMatch(html, /<h2>/);
});

test('TechnicalDetails without raw text is only its sentence', () => {
  const html = renderToStaticMarkup(<TechnicalDetails technical="  ">Entregado.</TechnicalDetails>);
  assert.doesNotMatch(html, /details/);
  assert.match(html, /Entregado\./);
});
