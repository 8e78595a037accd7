export * from './store';
export { PreferencesSchema, SETTINGS_FILE_VERSION, SettingsFileSchema, type SettingsFile } from './settings-file';
export * from './addresses';
export * from './files';
