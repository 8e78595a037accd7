/**
 * Start at login, from the `autoLaunch` setting. Windows (and macOS) have app.setLoginItemSettings;
 * Linux has no such API in Electron, so there it is an XDG autostart entry in
 * ~/.config/autostart. The entry text and the decisions are pure; the file writes are injected.
 */
import path from 'node:path';

export interface AutoLaunchEnv {
  readonly platform: NodeJS.Platform;
  /** process.execPath: the Packdesk executable. */
  readonly execPath: string;
  /** $APPIMAGE when running from an AppImage (execPath then points inside a temporary mount). */
  readonly appImage?: string | undefined;
  /** $XDG_CONFIG_HOME, or undefined for ~/.config. */
  readonly xdgConfigHome?: string | undefined;
  readonly home: string;
}

export interface AutoLaunchIo {
  /** Electron's app.setLoginItemSettings (Windows, macOS). */
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
  writeFile(file: string, text: string): void;
  removeFile(file: string): void;
}

/** Where the Linux autostart entry lives. */
export function autostartFile(env: AutoLaunchEnv): string {
  return path.join(env.xdgConfigHome || path.join(env.home, '.config'), 'autostart', 'packdesk.desktop');
}

/**
 * An Exec= argument per the Desktop Entry specification: quoted when it has reserved characters,
 * then string-escaped (backslashes doubled again) and with % doubled, as the spec requires.
 */
export function desktopExecQuote(arg: string): string {
  const quoted = /[\s"'\\$`<>|;&*?#()~]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, '\\$1')}"` : arg;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

/** The XDG autostart entry that starts Packdesk at login. */
export function autostartEntry(env: AutoLaunchEnv): string {
  const exec = env.appImage && env.appImage.length > 0 ? env.appImage : env.execPath;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Packdesk',
    'Comment=In-store order terminal',
    `Exec=${desktopExecQuote(exec)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Applies the setting: login item on Windows/macOS, autostart entry on Linux. */
export function applyAutoLaunch(enabled: boolean, env: AutoLaunchEnv, io: AutoLaunchIo): void {
  if (env.platform === 'linux') {
    const file = autostartFile(env);
    if (enabled) io.writeFile(file, autostartEntry(env));
    else io.removeFile(file);
    return;
  }
  io.setLoginItemSettings({ openAtLogin: enabled });
}
