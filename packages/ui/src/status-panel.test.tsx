import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { StatusPanel } from './status-panel.tsx';

test('StatusPanel lists every service with its link, escaping text', () => {
  const html = renderToStaticMarkup(
    <StatusPanel
      title="Servicios"
      services={[
        { name: 'API', url: 'http://127.0.0.1:3000/healthz', description: 'REST <contract>' },
        { name: 'Worker', url: 'http://127.0.0.1:3002/healthz', description: 'jobs' },
      ]}
    />,
  );
  assert.match(html, /<h2>Servicios<\/h2>/);
  assert.match(html, /<a href="http:\/\/127.0.0.1:3000\/healthz">/);
  assert.match(html, /REST &lt;contract&gt;/);
  assert.equal(html.match(/<li>/g)?.length, 2);
});
