/**
 * A third-party client, the npm package `dgii-ecf`, drives the simulator. Its hosts are the
 * exported `BaseUrl` object (read at call time for the consumer-invoice host) and the axios
 * instance's `restClient.defaults.baseURL`; both are pointed at the simulator. Its paths mix
 * letter case (`Autenticacion/api/Autenticacion/Semilla`, `/TesteCF/...`), hence case-insensitive routing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BaseUrl, ECF, ENVIRONMENT, Signature, restClient } from 'dgii-ecf';
import { buildEcf, issuerFor, openSimulator, type TSimulatorHarness } from '../test/simulator-harness.ts';

let harness: TSimulatorHarness;
const issuer = issuerFor('131880738');
const originalBaseUrls = {
  ECF: BaseUrl.ECF as string,
  CF: BaseUrl.CF as string,
  restClient: restClient.defaults.baseURL,
};

function pointAt(baseUrl: string): void {
  const hosts = BaseUrl as unknown as Record<'ECF' | 'CF' | 'STATUS', string>;
  hosts.ECF = baseUrl;
  hosts.CF = baseUrl;
  hosts.STATUS = baseUrl;
  restClient.defaults.baseURL = baseUrl;
}

before(async () => {
  harness = await openSimulator({
    directory: [
      { rnc: '101672919', name: 'Cliente', receptionUrl: 'http://127.0.0.1:9/fe/recepcion/api/ecf' },
    ],
  });
  pointAt(harness.baseUrl);
});
after(async () => {
  const hosts = BaseUrl as unknown as Record<'ECF' | 'CF', string>;
  hosts.ECF = originalBaseUrls.ECF;
  hosts.CF = originalBaseUrls.CF;
  restClient.defaults.baseURL = originalBaseUrls.restClient;
  delete restClient.defaults.headers.common['Authorization'];
  await harness.close();
});

test('dgii-ecf authenticates (its own seed signature), sends an e-CF it signed and reads the result', async () => {
  const client = new ECF({ key: issuer.privateKeyPem, cert: issuer.certificatePem }, ENVIRONMENT.DEV);
  const auth = await client.authenticate();
  assert.ok(auth?.token);
  assert.match(auth.expira, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

  const signature = new Signature(issuer.privateKeyPem, issuer.certificatePem);
  const signed = signature.signXml(buildEcf({ rnc: issuer.rnc, encf: 'E310000000501' }), 'ECF');
  const sent = await client.sendElectronicDocument(signed, `${issuer.rnc}E310000000501.xml`);
  assert.match(String(sent?.trackId), /^[0-9a-f-]{36}$/);

  let status = await client.statusTrackId(String(sent?.trackId));
  for (let attempt = 0; String(status?.estado) === 'En Proceso' && attempt < 50; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await client.statusTrackId(String(sent?.trackId));
  }
  assert.equal(status?.estado, 'Aceptado', JSON.stringify(status));

  const tracks = await client.trackStatuses(issuer.rnc, 'E310000000501');
  assert.equal(tracks?.length, 1);

  const inquiry = await client.inquiryStatus(issuer.rnc, 'E310000000501');
  assert.equal(inquiry?.estado, 'Aceptado');

  const directory = await client.getCustomerDirectory('101672919');
  assert.equal(directory?.[0]?.urlRecepcion, 'http://127.0.0.1:9/fe/recepcion/api/ecf');
});

test('dgii-ecf sends a consumer-invoice summary to the FC host and a bad signature is judged', async () => {
  const client = new ECF({ key: issuer.privateKeyPem, cert: issuer.certificatePem }, ENVIRONMENT.DEV);
  await client.authenticate();
  const signature = new Signature(issuer.privateKeyPem, issuer.certificatePem);
  const rfce =
    '<RFCE><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000501</eNCF><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${issuer.rnc}</RNCEmisor><RazonSocialEmisor>Empresa</RazonSocialEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor><Comprador><RNCComprador>101672919</RNCComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>100.00</MontoGravadoTotal><MontoGravadoI1>100.00</MontoGravadoI1><TotalITBIS>18.00</TotalITBIS><TotalITBIS1>18.00</TotalITBIS1>' +
    '<MontoTotal>118.00</MontoTotal></Totales><CodigoSeguridadeCF>abc123</CodigoSeguridadeCF></Encabezado></RFCE>';
  const summary = await client.sendSummary(signature.signXml(rfce, 'RFCE'), `${issuer.rnc}E320000000501.xml`);
  assert.equal(summary?.estado, 'Aceptado', JSON.stringify(summary));

  const tampered = signature
    .signXml(buildEcf({ rnc: issuer.rnc, encf: 'E310000000502' }), 'ECF')
    .replace('<MontoTotal>236.00</MontoTotal>', '<MontoTotal>1.00</MontoTotal>');
  const sent = await client.sendElectronicDocument(tampered, `${issuer.rnc}E310000000502.xml`);
  let status = await client.statusTrackId(String(sent?.trackId));
  for (let attempt = 0; String(status?.estado) === 'En Proceso' && attempt < 50; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await client.statusTrackId(String(sent?.trackId));
  }
  assert.equal(status?.estado, 'Rechazado');
  assert.equal(status?.secuenciaUtilizada, false);
});
