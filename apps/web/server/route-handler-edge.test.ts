// Every route handler under app/api declares how its body is read (server/route-handler-edge.ts):
// the route files walked on disk (they import server-only modules, so they are read, not imported).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTE_HANDLER_EDGE } from './route-handler-edge.ts';

const API_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '..', 'app', 'api');

/** Folder under app/api → the route file's source. */
function routeFiles(): Map<string, string> {
  const routes = new Map<string, string>();
  for (const entry of readdirSync(API_DIRECTORY, { recursive: true, encoding: 'utf8' })) {
    if (!/(^|\/)route\.tsx?$/.test(entry)) continue;
    const folder = relative(API_DIRECTORY, join(API_DIRECTORY, dirname(entry)))
      .split('\\')
      .join('/');
    routes.set(folder, readFileSync(join(API_DIRECTORY, entry), 'utf8'));
  }
  return routes;
}

/** The HTTP methods a route file exports (`export async function GET`, `export { handler as POST }`). */
function methodsOf(source: string): string[] {
  const methods = new Set<string>();
  for (const match of source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+([A-Z]+)\b/g))
    methods.add(match[1] ?? '');
  for (const match of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const name of (match[1] ?? '').matchAll(/\bas\s+([A-Z]+)\b/g)) methods.add(name[1] ?? '');
  return [...methods].filter((method) => method !== '').sort();
}

test('every route handler under app/api has a line, and every line a handler', () => {
  const folders = [...routeFiles().keys()].sort();
  assert.ok(folders.length >= 8, folders.join(', '));
  assert.deepEqual(Object.keys(ROUTE_HANDLER_EDGE).sort(), folders);
});

test('a handler without a body exports GET only; one with a body calls its declared reader', () => {
  for (const [folder, source] of routeFiles()) {
    const edge = ROUTE_HANDLER_EDGE[folder];
    assert.ok(edge, folder);
    const methods = methodsOf(source);
    assert.ok(methods.length > 0, `${folder}: no method found`);
    if (edge.body === 'none') {
      assert.deepEqual(
        methods.filter((method) => method !== 'GET' && method !== 'HEAD'),
        [],
        `${folder} takes a body: declare its limits and read it with readRequestBytes`,
      );
      assert.doesNotMatch(source, /\.(json|text|formData|arrayBuffer|blob)\(\)|\.body\b/, folder);
    } else {
      assert.match(
        source,
        new RegExp(`\\b${edge.reader}\\(`),
        `${folder} must read its body with ${edge.reader}`,
      );
    }
  }
});
