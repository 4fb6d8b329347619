import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import HomePage from './page.tsx';

test('the placeholder home page renders its title and the API links', () => {
  const html = renderToStaticMarkup(<HomePage />);
  assert.match(html, /<h1>e-CF Portal<\/h1>/);
  assert.match(html, /href="http:\/\/127\.0\.0\.1:3000\/healthz"/);
});
