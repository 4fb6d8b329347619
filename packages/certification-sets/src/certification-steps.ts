/**
 * The fifteen steps of the tax authority's certification portal, in the order it shows them: the
 * portal's own vocabulary, shared by the service (which follows a taxpayer through them) and the
 * simulator (which plays the portal). No dependency, so a browser bundle may import it too.
 */
export const CERTIFICATION_STEPS = [
  'registered',
  'data_tests_ecf',
  'data_tests_commercial_approval',
  'simulation_ecf',
  'simulation_printed_representation',
  'printed_representation_validation',
  'test_service_urls',
  'reception_test_ecf',
  'reception_ecf',
  'reception_test_commercial_approval',
  'reception_commercial_approval',
  'production_service_urls',
  'sworn_declaration',
  'status_verification',
  'finished',
] as const;

export type TCertificationStep = (typeof CERTIFICATION_STEPS)[number];
