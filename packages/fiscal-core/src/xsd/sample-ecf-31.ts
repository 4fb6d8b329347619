/**
 * Test support, not part of the public API: a hand-written, schema-valid e-CF 31 in canonical form
 * (no whitespace, C14N escaping) with any number of item lines, for tests and the benchmark.
 */

/** Options of {@link buildSampleEcf31}. */
export type TSampleEcf31Options = { lines: number; eNcf?: string; fechaHoraFirma?: string };

/** Builds a valid e-CF 31 with `lines` items at 100.00 + 18 % ITBIS each. */
export function buildSampleEcf31(options: TSampleEcf31Options): string {
  const lines = options.lines;
  let items = '';
  for (let line = 1; line <= lines; line += 1) {
    items +=
      `<Item><NumeroLinea>${line}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
      `<NombreItem>Artículo ${line} &amp; servicio &lt;A&gt;</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
      `<CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>`;
  }
  const gravado = (lines * 100).toFixed(2);
  const itbis = (lines * 18).toFixed(2);
  const total = (lines * 118).toFixed(2);
  return (
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>31</TipoeCF><eNCF>${options.eNcf ?? 'E310000000001'}</eNCF><FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    '<Emisor><RNCEmisor>131880738</RNCEmisor><RazonSocialEmisor>Empresa de Prueba, S.R.L.</RazonSocialEmisor>' +
    '<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
    '<Comprador><RNCComprador>101672919</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>' +
    `<Totales><MontoGravadoTotal>${gravado}</MontoGravadoTotal><MontoGravadoI1>${gravado}</MontoGravadoI1><ITBIS1>18</ITBIS1>` +
    `<TotalITBIS>${itbis}</TotalITBIS><TotalITBIS1>${itbis}</TotalITBIS1><MontoTotal>${total}</MontoTotal></Totales></Encabezado>` +
    `<DetallesItems>${items}</DetallesItems>` +
    `<FechaHoraFirma>${options.fechaHoraFirma ?? '01-04-2026 10:15:00'}</FechaHoraFirma></ECF>`
  );
}
