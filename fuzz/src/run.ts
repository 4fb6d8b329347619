/**
 * The contract fuzzer (README.md): the API's operations, then the portal's procedures; prints the
 * seed first and a closing line with the counts; exits 1 on any finding.
 *
 *   npm run fuzz -- --seed 20261127 --runs 20
 */
import { fuzzApi } from './api-fuzz.ts';
import { printFindings, type TFinding } from './findings.ts';
import { readOptions } from './options.ts';
import { fuzzPortal } from './portal-fuzz.ts';

const options = readOptions(process.argv.slice(2), process.env);
const surfaces = process.argv.includes('--api-only')
  ? ['api']
  : process.argv.includes('--portal-only')
    ? ['portal']
    : ['api', 'portal'];
console.log(
  `fuzz: seed ${options.seed}, runs ${options.runs} (replay: npm run fuzz -- --seed ${options.seed} --runs ${options.runs})`,
);
const started = Date.now();
const findings: TFinding[] = [];
let operations = 0;
let procedures = 0;
let cases = 0;
if (surfaces.includes('api')) {
  const api = await fuzzApi(options);
  operations = api.operations;
  cases += api.cases;
  findings.push(...api.findings);
  console.log(
    `fuzz: API ${api.operations} operations, ${api.cases} cases in ${Math.round((Date.now() - started) / 1000)} s`,
  );
}
if (surfaces.includes('portal')) {
  const portalStarted = Date.now();
  const portal = await fuzzPortal(options);
  procedures = portal.procedures;
  cases += portal.cases;
  findings.push(...portal.findings);
  console.log(
    `fuzz: portal ${portal.procedures} procedures, ${portal.cases} cases in ${Math.round((Date.now() - portalStarted) / 1000)} s`,
  );
}
if (findings.length > 0) printFindings(findings, options.limit);
const count = (value: number) => value.toLocaleString('en-US');
console.log(
  `fuzz: ${count(operations)} operations, ${count(procedures)} procedures, ${count(cases)} cases, seed ${options.seed}: ${count(findings.length)} failures (${Math.round((Date.now() - started) / 1000)} s)`,
);
process.exit(findings.length > 0 ? 1 : 0);
