/** The engine facade: what the shells, the CLI and the tests use. */
export { createEngine, type Engine, type EngineOptions } from './engine';
export { openEngineWithService, openServiceParts, type IntakeEvent, type ServiceEngine, type ServiceEngineOptions, type ServiceParts } from './compose';
