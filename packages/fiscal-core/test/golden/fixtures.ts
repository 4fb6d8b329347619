/**
 * Fixed input trees of the golden documents: one realistic e-CF per type plus the inputs of the
 * ACECF, ARECF and ANECF. Totals are computed by hand and square (ITBIS 18 % / 16 % / 0 %, exempt
 * lines, withholdings), so the goldens double as worked examples for the calculation layer.
 *
 * The issuer RNC 131880738 is the holder RNC of `test-certificate.p12`. Some member orders are shuffled
 * on purpose (the E31's `Encabezado`, `Totales` and first `Item`): the writer must not care.
 */
import type { TEcfDocument, TEcfTree, TEcfType } from '../../src/model/ecf-tree.ts';
import type { TAcecfInput } from '../../src/documents/acecf-document.ts';
import type { TArecfInput } from '../../src/documents/arecf-document.ts';
import type { TAnecfInput } from '../../src/documents/anecf-document.ts';

const ISSUER: TEcfTree = {
  RNCEmisor: '131880738',
  RazonSocialEmisor: 'Comercial Ejemplo Dominicana, S.R.L.',
  NombreComercial: 'Comercial Ejemplo',
  Sucursal: 'Principal',
  DireccionEmisor: 'Av. Winston Churchill No. 1099, Piantini',
  Municipio: '010101',
  Provincia: '010000',
  TablaTelefonoEmisor: { TelefonoEmisor: ['809-555-0101', '809-555-0102'] },
  CorreoEmisor: 'facturacion@ejemplo.com.do',
  WebSite: 'www.ejemplo.com.do',
  ActividadEconomica: 'Venta de equipos y suministros de oficina',
};

function issuer(fechaEmision: string, numeroFacturaInterna: string): TEcfTree {
  return { ...ISSUER, NumeroFacturaInterna: numeroFacturaInterna, FechaEmision: fechaEmision };
}

const BUYER_31: TEcfTree = {
  RNCComprador: '101234567',
  // Escaping: & < > must be escaped, the double quote must stay literal (C14N text rules).
  RazonSocialComprador: 'Distribuidora "El Sol" & Hijos <Norte>, S.R.L.',
};

/** Factura de Crédito Fiscal: ITBIS 18 % and 16 %, an exempt line, a line discount, credit terms. */
const E31: TEcfDocument = {
  ECF: {
    FechaHoraFirma: '15-11-2026 10:30:00',
    Encabezado: {
      Totales: {
        MontoTotal: '116220.00',
        TotalITBIS2: '400.00',
        TotalITBIS1: '16920.00',
        TotalITBIS: '17320.00',
        ITBIS2: '16',
        ITBIS1: '18',
        MontoExento: '2400.00',
        MontoGravadoI2: '2500.00',
        MontoGravadoI1: '94000.00',
        MontoGravadoTotal: '96500.00',
      },
      Comprador: {
        ...BUYER_31,
        ContactoComprador: 'María Fernández',
        CorreoComprador: 'compras@elsol.com.do',
        DireccionComprador: 'Calle El Sol No. 45, Santiago de los Caballeros',
        FechaEntrega: '16-11-2026',
        FechaOrdenCompra: '10-11-2026',
        NumeroOrdenCompra: 'OC-4587',
        CodigoInternoComprador: 'CLI-0042',
      },
      IdDoc: {
        TipoeCF: '31',
        eNCF: 'E310000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        IndicadorMontoGravado: '0',
        TipoIngresos: '01',
        TipoPago: '2',
        FechaLimitePago: '15-12-2026',
        TerminoPago: '30 dias',
        TablaFormasPago: { FormaDePago: [{ FormaPago: '4', MontoPago: '116220.00' }] },
      },
      Emisor: issuer('15-11-2026', 'FI-2026-000123'),
      Version: '1.0',
    },
    DetallesItems: {
      Item: [
        {
          MontoItem: '89000.00',
          TablaSubDescuento: { SubDescuento: [{ TipoSubDescuento: '$', MontoSubDescuento: '1000.00' }] },
          DescuentoMonto: '1000.00',
          PrecioUnitarioItem: '45000.00',
          UnidadMedida: '43',
          CantidadItem: '2',
          DescripcionItem: 'Intel Core i7, 16 GB RAM, 512 GB SSD',
          IndicadorBienoServicio: '1',
          NombreItem: 'Laptop HP ProBook 450 G10',
          IndicadorFacturacion: '1',
          TablaCodigosItem: { CodigosItem: [{ TipoCodigo: 'SKU', CodigoItem: 'HP-PB450-G10' }] },
          NumeroLinea: '1',
        },
        {
          NumeroLinea: '2',
          IndicadorFacturacion: '1',
          NombreItem: 'Servicio de instalación y configuración',
          IndicadorBienoServicio: '2',
          CantidadItem: '1',
          PrecioUnitarioItem: '5000.00',
          MontoItem: '5000.00',
        },
        {
          NumeroLinea: '3',
          IndicadorFacturacion: '2',
          NombreItem: 'Café molido Santo Domingo 1 lb',
          IndicadorBienoServicio: '1',
          CantidadItem: '10',
          UnidadMedida: '43',
          PrecioUnitarioItem: '250.00',
          MontoItem: '2500.00',
        },
        {
          NumeroLinea: '4',
          IndicadorFacturacion: '4',
          NombreItem: 'Libro "Contabilidad básica" & ejercicios <2da ed.>',
          IndicadorBienoServicio: '1',
          CantidadItem: '3',
          UnidadMedida: '43',
          PrecioUnitarioItem: '800.00',
          MontoItem: '2400.00',
        },
      ],
    },
  },
};

/** Factura de Consumo below RD$250,000 (so it also gets an RFCE): two payment forms, 18 %, 16 %, exempt. */
const E32: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '32',
        eNCF: 'E320000000001',
        IndicadorMontoGravado: '0',
        TipoIngresos: '01',
        TipoPago: '1',
        TablaFormasPago: {
          FormaDePago: [
            { FormaPago: '1', MontoPago: '1000.00' },
            { FormaPago: '3', MontoPago: '1501.09' },
          ],
        },
      },
      Emisor: issuer('15-11-2026', 'FI-2026-000124'),
      Comprador: { RNCComprador: '00112345678', RazonSocialComprador: 'Juan Pérez' },
      Totales: {
        MontoGravadoTotal: '1535.50',
        MontoGravadoI1: '995.50',
        MontoGravadoI2: '540.00',
        MontoExento: '700.00',
        ITBIS1: '18',
        ITBIS2: '16',
        TotalITBIS: '265.59',
        TotalITBIS1: '179.19',
        TotalITBIS2: '86.40',
        MontoTotal: '2501.09',
      },
    },
    DetallesItems: {
      Item: [
        line('1', '4', 'Arroz Selecto 10 lb', '1', '2', '350.00', '700.00', '43'),
        line('2', '1', 'Refresco de cola 2 L', '1', '6', '95.00', '570.00', '43'),
        line('3', '2', 'Yogurt natural 1 L', '1', '3', '180.00', '540.00', '43'),
        line('4', '1', 'Detergente "Brillo" & suavizante', '1', '1', '425.50', '425.50', '43'),
      ],
    },
    FechaHoraFirma: '15-11-2026 11:02:45',
  },
};

function line(
  numero: string,
  indicadorFacturacion: string,
  nombre: string,
  bienOServicio: string,
  cantidad: string,
  precio: string,
  monto: string,
  unidad?: string,
): TEcfTree {
  return {
    NumeroLinea: numero,
    IndicadorFacturacion: indicadorFacturacion,
    NombreItem: nombre,
    IndicadorBienoServicio: bienOServicio,
    CantidadItem: cantidad,
    UnidadMedida: unidad,
    PrecioUnitarioItem: precio,
    MontoItem: monto,
  };
}

/** Nota de Débito on the E31: price correction (code 3) at 18 % plus an exempt late fee. */
const E33: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '33',
        eNCF: 'E330000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        TipoIngresos: '01',
        TipoPago: '1',
      },
      Emisor: issuer('20-11-2026', 'FI-2026-000131'),
      Comprador: BUYER_31,
      Totales: {
        MontoGravadoTotal: '3000.00',
        MontoGravadoI1: '3000.00',
        MontoExento: '500.00',
        ITBIS1: '18',
        TotalITBIS: '540.00',
        TotalITBIS1: '540.00',
        MontoTotal: '4040.00',
      },
    },
    DetallesItems: {
      Item: [
        line('1', '1', 'Ajuste de precio: Laptop HP ProBook 450 G10', '1', '2', '1500.00', '3000.00', '43'),
        line('2', '4', 'Cargo por mora en el pago', '2', '1', '500.00', '500.00'),
      ],
    },
    InformacionReferencia: {
      NCFModificado: 'E310000000001',
      FechaNCFModificado: '15-11-2026',
      CodigoModificacion: '3',
      RazonModificacion: 'Corrección del precio pactado',
    },
    FechaHoraFirma: '20-11-2026 09:15:00',
  },
};

/** Nota de Crédito on the E31 within 30 days (`IndicadorNotaCredito` 0): partial return at 18 % and 16 %. */
const E34: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '34',
        eNCF: 'E340000000001',
        IndicadorNotaCredito: '0',
        TipoIngresos: '01',
        TipoPago: '1',
      },
      Emisor: issuer('25-11-2026', 'FI-2026-000140'),
      Comprador: BUYER_31,
      Totales: {
        MontoGravadoTotal: '45000.00',
        MontoGravadoI1: '44500.00',
        MontoGravadoI2: '500.00',
        ITBIS1: '18',
        ITBIS2: '16',
        TotalITBIS: '8090.00',
        TotalITBIS1: '8010.00',
        TotalITBIS2: '80.00',
        MontoTotal: '53090.00',
      },
    },
    DetallesItems: {
      Item: [
        line('1', '1', 'Devolución: Laptop HP ProBook 450 G10', '1', '1', '44500.00', '44500.00', '43'),
        line('2', '2', 'Devolución: Café molido Santo Domingo 1 lb', '1', '2', '250.00', '500.00', '43'),
      ],
    },
    InformacionReferencia: {
      NCFModificado: 'E310000000001',
      FechaNCFModificado: '15-11-2026',
      CodigoModificacion: '3',
      RazonModificacion: 'Devolución parcial de mercancía',
    },
    FechaHoraFirma: '25-11-2026 16:40:10',
  },
};

/** Compras to an individual supplier: ITBIS and ISR withheld on the service line, an exempt good. */
const E41: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '41',
        eNCF: 'E410000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        IndicadorMontoGravado: '0',
        TipoPago: '1',
        TablaFormasPago: { FormaDePago: { FormaPago: '2', MontoPago: '11000.00' } },
      },
      Emisor: issuer('18-11-2026', 'FI-2026-000127'),
      Comprador: {
        RNCComprador: '00198765432',
        RazonSocialComprador: 'Pedro Antonio Rosario',
        DireccionComprador: 'Calle 5 No. 12, Los Mina, Santo Domingo Este',
      },
      Totales: {
        MontoGravadoTotal: '10000.00',
        MontoGravadoI1: '10000.00',
        MontoExento: '2000.00',
        ITBIS1: '18',
        TotalITBIS: '1800.00',
        TotalITBIS1: '1800.00',
        MontoTotal: '13800.00',
        TotalITBISRetenido: '1800.00',
        TotalISRRetencion: '1000.00',
      },
    },
    DetallesItems: {
      Item: [
        {
          ...line('1', '1', 'Reparación de aire acondicionado', '2', '1', '10000.00', '10000.00'),
          Retencion: {
            IndicadorAgenteRetencionoPercepcion: '1',
            MontoITBISRetenido: '1800.00',
            MontoISRRetenido: '1000.00',
          },
        },
        {
          ...line('2', '4', 'Aguacates', '1', '50', '40.00', '2000.00', '43'),
          Retencion: { IndicadorAgenteRetencionoPercepcion: '1' },
        },
      ],
    },
    FechaHoraFirma: '18-11-2026 12:00:00',
  },
};

/** Gastos Menores: no buyer at all, exempt minor expenses. */
const E43: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: { TipoeCF: '43', eNCF: 'E430000000001', FechaVencimientoSecuencia: '31-12-2027', TipoPago: '1' },
      Emisor: issuer('19-11-2026', 'FI-2026-000129'),
      Totales: { MontoExento: '370.00', MontoTotal: '370.00' },
    },
    DetallesItems: {
      Item: [
        line('1', '4', 'Peaje Autopista Duarte', '2', '2', '60.00', '120.00'),
        line('2', '4', 'Parqueo', '2', '1', '100.00', '100.00'),
        line('3', '4', 'Fotocopias', '1', '50', '3.00', '150.00', '43'),
      ],
    },
    FechaHoraFirma: '19-11-2026 18:20:00',
  },
};

/** Regímenes Especiales: free-zone buyer, exempt lines, sold on credit. */
const E44: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '44',
        eNCF: 'E440000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        TipoIngresos: '01',
        TipoPago: '2',
        FechaLimitePago: '15-12-2026',
        TablaFormasPago: { FormaDePago: [{ FormaPago: '4', MontoPago: '18500.00' }] },
      },
      Emisor: issuer('16-11-2026', 'FI-2026-000125'),
      Comprador: { RNCComprador: '130555555', RazonSocialComprador: 'Textiles del Caribe Zona Franca, S.A.' },
      Totales: { MontoExento: '18500.00', MontoTotal: '18500.00' },
    },
    DetallesItems: {
      Item: [
        line('1', '4', 'Tela de algodón', '1', '100', '150.00', '15000.00'),
        line('2', '4', 'Servicio de corte y confección', '2', '1', '3500.00', '3500.00'),
      ],
    },
    FechaHoraFirma: '16-11-2026 09:00:00',
  },
};

/** Gubernamental: a ministry with a purchase order, 18 % and exempt lines, credit. */
const E45: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '45',
        eNCF: 'E450000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        IndicadorMontoGravado: '0',
        TipoIngresos: '01',
        TipoPago: '2',
        FechaLimitePago: '15-01-2027',
        TablaFormasPago: { FormaDePago: [{ FormaPago: '4', MontoPago: '64510.00' }] },
      },
      Emisor: issuer('17-11-2026', 'FI-2026-000126'),
      Comprador: {
        RNCComprador: '401007551',
        RazonSocialComprador: 'Ministerio de Educación de la República Dominicana',
        FechaOrdenCompra: '01-11-2026',
        NumeroOrdenCompra: 'MINERD-2026-0153',
      },
      Totales: {
        MontoGravadoTotal: '44500.00',
        MontoGravadoI1: '44500.00',
        MontoExento: '12000.00',
        ITBIS1: '18',
        TotalITBIS: '8010.00',
        TotalITBIS1: '8010.00',
        MontoTotal: '64510.00',
      },
    },
    DetallesItems: {
      Item: [
        line('1', '1', 'Resmas de papel bond 8.5 x 11', '1', '100', '285.00', '28500.00', '43'),
        line('2', '1', 'Tóner para impresora láser', '1', '5', '3200.00', '16000.00', '43'),
        line('3', '4', 'Libros de consulta pedagógica', '1', '10', '1200.00', '12000.00', '43'),
      ],
    },
    FechaHoraFirma: '17-11-2026 15:45:30',
  },
};

/** Exportaciones: foreign buyer, ITBIS 0 %, amounts also in USD, shipping and transport data. */
const E46: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '46',
        eNCF: 'E460000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        TipoIngresos: '01',
        TipoPago: '2',
        FechaLimitePago: '15-01-2027',
        TablaFormasPago: { FormaDePago: [{ FormaPago: '2', MontoPago: '1400000.00' }] },
      },
      Emisor: issuer('18-11-2026', 'FI-2026-000128'),
      Comprador: {
        IdentificadorExtranjero: '98-7654321',
        RazonSocialComprador: 'Caribbean Imports LLC',
        DireccionComprador: '1200 Brickell Ave, Miami, FL 33131',
        PaisComprador: 'Estados Unidos',
      },
      InformacionesAdicionales: {
        FechaEmbarque: '18-11-2026',
        NumeroEmbarque: 'BL-CAU-778812',
        NumeroContenedor: 'MSCU4471203',
        NombrePuertoEmbarque: 'Puerto Multimodal Caucedo',
        CondicionesEntrega: 'FOB',
        TotalFob: '1400000.00',
        RegimenAduanero: 'Exportación definitiva',
        NombrePuertoSalida: 'Puerto Multimodal Caucedo',
        NombrePuertoDesembarque: 'Port of Miami',
        PesoBruto: '7250.00',
        PesoNeto: '7000.00',
        UnidadPesoBruto: '21',
        UnidadPesoNeto: '21',
      },
      Transporte: {
        ViaTransporte: '02',
        PaisOrigen: 'República Dominicana',
        DireccionDestino: '1200 Brickell Ave, Miami, FL 33131',
        PaisDestino: 'Estados Unidos',
        NombreCompaniaTransportista: 'Mediterranean Shipping Company',
        NumeroViaje: 'MSC-2611',
      },
      Totales: {
        MontoGravadoTotal: '1400000.00',
        MontoGravadoI3: '1400000.00',
        ITBIS3: '0',
        TotalITBIS: '0.00',
        TotalITBIS3: '0.00',
        MontoTotal: '1400000.00',
      },
      OtraMoneda: {
        TipoMoneda: 'USD',
        TipoCambio: '60.0000',
        MontoGravadoTotalOtraMoneda: '23333.33',
        MontoGravado3OtraMoneda: '23333.33',
        TotalITBISOtraMoneda: '0.00',
        TotalITBIS3OtraMoneda: '0.00',
        MontoTotalOtraMoneda: '23333.33',
      },
    },
    DetallesItems: {
      Item: [
        {
          ...line('1', '3', 'Cacao orgánico en grano', '1', '5000', '180.00', '900000.00', '21'),
          OtraMonedaDetalle: { PrecioOtraMoneda: '3.00', MontoItemOtraMoneda: '15000.00' },
        },
        {
          ...line('2', '3', 'Café verde de exportación', '1', '2000', '250.00', '500000.00', '21'),
          OtraMonedaDetalle: { PrecioOtraMoneda: '4.1667', MontoItemOtraMoneda: '8333.33' },
        },
      ],
    },
    FechaHoraFirma: '18-11-2026 07:30:00',
  },
};

/** Pagos al Exterior: foreign provider without RNC, exempt services, ISR withheld (27 %). */
const E47: TEcfDocument = {
  ECF: {
    Encabezado: {
      Version: '1.0',
      IdDoc: {
        TipoeCF: '47',
        eNCF: 'E470000000001',
        FechaVencimientoSecuencia: '31-12-2027',
        TipoPago: '1',
        TablaFormasPago: { FormaDePago: [{ FormaPago: '2', MontoPago: '109500.00' }] },
      },
      Emisor: issuer('20-11-2026', 'FI-2026-000132'),
      Comprador: {
        IdentificadorExtranjero: 'ESB12345678',
        RazonSocialComprador: 'Soluciones Cloud Europa, S.L.',
      },
      Totales: { MontoExento: '150000.00', MontoTotal: '150000.00', TotalISRRetencion: '40500.00' },
    },
    DetallesItems: {
      Item: [
        {
          ...line('1', '4', 'Licencia anual de software de gestión', '2', '1', '120000.00', '120000.00'),
          Retencion: { IndicadorAgenteRetencionoPercepcion: '1', MontoISRRetenido: '32400.00' },
        },
        {
          ...line('2', '4', 'Soporte técnico remoto (horas)', '2', '12', '2500.00', '30000.00'),
          Retencion: { IndicadorAgenteRetencionoPercepcion: '1', MontoISRRetenido: '8100.00' },
        },
      ],
    },
    FechaHoraFirma: '20-11-2026 10:10:10',
  },
};

/** One fixture e-CF per type. */
export const ECF_FIXTURES: { readonly [type in TEcfType]: TEcfDocument } = {
  '31': E31,
  '32': E32,
  '33': E33,
  '34': E34,
  '41': E41,
  '43': E43,
  '44': E44,
  '45': E45,
  '46': E46,
  '47': E47,
};

/** A commercial rejection of a supplier's e-CF received by the certificate holder. */
export const ACECF_FIXTURE: TAcecfInput = {
  rncEmisor: '101234567',
  encf: 'E310000000125',
  fechaEmision: '10-11-2026',
  montoTotal: '59000',
  rncComprador: '131880738',
  estado: 'rejected',
  rejectionReason: 'Precio facturado no corresponde a la orden OC-4587 & cantidades <recibidas>',
  approvedAt: '16-11-2026 14:05:00',
};

/** The receipt acknowledgement of that same e-CF. */
export const ARECF_FIXTURE: TArecfInput = {
  rncEmisor: '101234567',
  rncComprador: '131880738',
  encf: 'E310000000125',
  estado: 'received',
  acknowledgedAt: '10-11-2026 08:00:05',
};

/** Two ranges of E31 (10 + 5) and one E32 (1): 16 eNCFs, two detail lines. */
export const ANECF_FIXTURE: TAnecfInput = {
  rncEmisor: '131880738',
  annulledAt: '20-11-2026 17:45:00',
  ranges: [
    { type: '31', from: 'E310000000050', to: 'E310000000059' },
    { type: '32', from: 'E320000000100', to: 'E320000000100' },
    { type: '31', from: 'E310000000070', to: 'E310000000074' },
  ],
};
