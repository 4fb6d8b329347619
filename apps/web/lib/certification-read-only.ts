/**
 * The certification steps' "what to do" as a read-only page says it (client-safe): the embedded
 * page a Partner frames (`/embed/certification/{token}`) and the Partner's account page show the
 * tenant page's step titles and states, but nobody uploads, sends or marks a step there. The
 * tenant page's own texts (`CERTIFICATION_STEP_INFO` of @ecf/services) say "súbalo aquí", "envíelo
 * aquí" and "marque este paso"; these say where it is done instead: the tax authority's portal or
 * the Partner's (software provider's) application. Steps the service completes by itself keep
 * their text.
 */
const READ_ONLY_STEP_ACTIONS: Readonly<Record<string, string>> = {
  registered:
    'Complete la postulación en el portal de certificación de la DGII, descargue el set de pruebas e-CF y entréguelo en la aplicación de su proveedor de software.',
  data_tests_ecf:
    'Su proveedor de software envía el set de pruebas a la DGII (corrida de datos). Si la DGII rechaza un comprobante, hará falta un set nuevo del portal de la DGII.',
  data_tests_commercial_approval:
    'Descargue el set de aprobaciones comerciales del portal de la DGII y entréguelo en la aplicación de su proveedor de software.',
  simulation_ecf:
    'Su proveedor de software ejecuta la simulación: el set modelo de la DGII con e-NCF nuevos, o sus propios comprobantes.',
  simulation_printed_representation:
    'Suba en el portal de la DGII los PDF de la simulación que le entrega su proveedor de software; luego indíquelo en la aplicación de su proveedor.',
  printed_representation_validation:
    'Cuando la DGII apruebe las representaciones impresas, indíquelo en la aplicación de su proveedor de software.',
  test_service_urls:
    'Registre en el portal de la DGII las URL de prueba (recepción, aprobación comercial y autenticación) que le indica su proveedor de software; luego indíquelo en la aplicación de su proveedor.',
  reception_test_ecf:
    'Indique en el portal de la DGII que está listo para recibir e-CF; luego indíquelo en la aplicación de su proveedor de software.',
  reception_test_commercial_approval:
    'Elija "Enviar prueba de Aprobaciones Comerciales" en el portal de la DGII; luego indíquelo en la aplicación de su proveedor de software.',
  production_service_urls:
    'Registre en el portal de la DGII las URL de producción que le indica su proveedor de software; luego indíquelo en la aplicación de su proveedor.',
  sworn_declaration:
    'Descargue, firme y envíe la declaración jurada en el portal de la DGII; luego indíquelo en la aplicación de su proveedor de software. La producción queda pendiente de autorización.',
};

/** What a person does for `step`, said for a read-only page (`action`: the tenant page's text). */
export function readOnlyStepAction(step: string, action: string): string {
  return READ_ONLY_STEP_ACTIONS[step] ?? action;
}
