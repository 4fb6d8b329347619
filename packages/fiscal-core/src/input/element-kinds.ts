/**
 * What the official XSDs say about element names, as far as parsing JSON needs it. Names are the
 * same in every e-CF type, so one table serves all ten.
 */

/** Elements that repeat (`maxOccurs` > 1): always arrays in the tree, a single object also accepted in JSON (clarification 14). */
export const REPEATED_ELEMENTS: ReadonlySet<string> = new Set([
  'TelefonoEmisor',
  'FormaDePago',
  'Item',
  'CodigosItem',
  'SubcantidadItem',
  'SubDescuento',
  'SubRecargo',
  'ImpuestoAdicional',
  'ImpuestoAdicionalOtraMoneda',
  'DescuentoORecargo',
  'Pagina',
  'Subtotal',
]);

/** Decimal elements (XSD types `Decimal...`): JSON strings or numbers, strict decimal text (rule 11). */
export const DECIMAL_ELEMENTS: ReadonlySet<string> = new Set(
  (
    'CantidadBulto CantidadItem CantidadReferencia DescuentoMonto DescuentoOtraMoneda Flete GradosAlcohol MontoAvancePago ' +
    'MontoDescuentooRecargo MontoDescuentooRecargoOtraMoneda MontoExento MontoExentoOtraMoneda MontoGravado1OtraMoneda ' +
    'MontoGravado2OtraMoneda MontoGravado3OtraMoneda MontoGravadoI1 MontoGravadoI2 MontoGravadoI3 MontoGravadoTotal ' +
    'MontoGravadoTotalOtraMoneda MontoISRRetenido MontoITBISRetenido MontoImpuestoAdicional MontoImpuestoAdicionalOtraMoneda ' +
    'MontoImpuestoSelectivoConsumoAdvalorem MontoImpuestoSelectivoConsumoAdvaloremOtraMoneda MontoImpuestoSelectivoConsumoEspecifico ' +
    'MontoImpuestoSelectivoConsumoEspecificoOtraMoneda MontoItem MontoItemOtraMoneda MontoNoFacturable MontoPago MontoPeriodo ' +
    'MontoSubDescuento MontoSubRecargo MontoSubTotal MontoSubtotalPagina MontoTotal MontoTotalOtraMoneda OtrosGastos ' +
    'OtrosImpuestosAdicionales OtrosImpuestosAdicionalesOtraMoneda PesoBruto PesoNeto PesoNetoKilogramo PesoNetoMineria ' +
    'PrecioOtraMoneda PrecioUnitarioItem PrecioUnitarioReferencia RecargoMonto RecargoOtraMoneda SaldoAnterior Seguro ' +
    'SubDescuentoPorcentaje SubRecargoPorcentaje SubTotaITBIS SubTotaITBIS1 SubTotaITBIS2 SubTotaITBIS3 SubTotalExento ' +
    'SubTotalImpuestoAdicional SubTotalMontoGravadoI1 SubTotalMontoGravadoI2 SubTotalMontoGravadoI3 SubTotalMontoGravadoTotal ' +
    'Subcantidad SubtotalExentoPagina SubtotalImpuestoAdicionalPagina SubtotalImpuestoSelectivoConsumoEspecificoPagina ' +
    'SubtotalItbis1Pagina SubtotalItbis2Pagina SubtotalItbis3Pagina SubtotalItbisPagina SubtotalMontoGravado1Pagina ' +
    'SubtotalMontoGravado2Pagina SubtotalMontoGravado3Pagina SubtotalMontoGravadoPagina SubtotalMontoNoFacturablePagina ' +
    'SubtotalOtrosImpuesto TasaImpuestoAdicional TasaImpuestoAdicionalOtraMoneda TipoCambio TotalCif TotalFob TotalISRPercepcion ' +
    'TotalISRRetencion TotalITBIS TotalITBIS1 TotalITBIS1OtraMoneda TotalITBIS2 TotalITBIS2OtraMoneda TotalITBIS3 ' +
    'TotalITBIS3OtraMoneda TotalITBISOtraMoneda TotalITBISPercepcion TotalITBISRetenido ValorDescuentooRecargo ValorPagar VolumenBulto'
  ).split(' '),
);

/** Plain date elements, `DD-MM-YYYY` (rule 12). */
export const DATE_ELEMENTS: ReadonlySet<string> = new Set([
  'FechaVencimientoSecuencia',
  'FechaLimitePago',
  'FechaDesde',
  'FechaHasta',
  'FechaEmision',
  'FechaEntrega',
  'FechaOrdenCompra',
  'FechaEmbarque',
  'FechaElaboracion',
  'FechaVencimientoItem',
  'FechaNCFModificado',
]);
