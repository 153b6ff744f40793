; Inno Setup 6 script for the Windows installer of Killbox.
; Built by .github/workflows/release.yml: iscc /DAppVersion=X.Y.Z /DSourceDir=dist\killbox
;   /DNoticesFile=dist\THIRD-PARTY-LICENSES.txt packaging\windows\killbox.iss
; Installs the PyInstaller folder under Program Files, a Start-menu entry (and, if asked, a desktop
; shortcut) and opens .killbox encounters in Killbox on a double-click, with the Killbox icon.
; Beside the program: Killbox's licence (LICENSE.txt) and the licences of everything the bundle
; carries (THIRD-PARTY-LICENSES.txt, from packaging/linux/copyright.py; iscc stops without it).

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\killbox"
#endif
#ifndef NoticesFile
  #define NoticesFile "..\..\dist\THIRD-PARTY-LICENSES.txt"
#endif

[Setup]
AppId={{6C2E9B1D-4A8F-4E55-9C3B-2F7D1A0B5E41}
AppName=Killbox
AppVersion={#AppVersion}
AppPublisher=Killbox developers
DefaultDirName={autopf}\Killbox
DefaultGroupName=Killbox
UninstallDisplayIcon={app}\killbox.exe
SetupIconFile=..\..\assets\icons\killbox.ico
LicenseFile=..\..\LICENSE
OutputDir=..\..\dist
OutputBaseFilename=killbox-{#AppVersion}-windows-setup
Compression=lzma2/ultra64
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
PrivilegesRequiredOverridesAllowed=dialog
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "..\..\assets\icons\killbox.ico"; DestDir: "{app}"; Flags: ignoreversion
Source: "..\..\LICENSE"; DestDir: "{app}"; DestName: "LICENSE.txt"; Flags: ignoreversion
Source: "{#NoticesFile}"; DestDir: "{app}"; Flags: ignoreversion

[Icons]
Name: "{group}\Killbox"; Filename: "{app}\killbox.exe"
Name: "{group}\Uninstall Killbox"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Killbox"; Filename: "{app}\killbox.exe"; Tasks: desktopicon

[Registry]
; .killbox -> Killbox.Encounter, opened by killbox.exe, shown with the Killbox icon.
Root: HKA; Subkey: "Software\Classes\.killbox"; ValueType: string; ValueName: ""; ValueData: "Killbox.Encounter"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.killbox"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-killbox"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\Killbox.Encounter"; ValueType: string; ValueName: ""; ValueData: "Killbox encounter"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Killbox.Encounter\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\killbox.ico,0"
Root: HKA; Subkey: "Software\Classes\Killbox.Encounter\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\killbox.exe"" ""%1"""

[Run]
Filename: "{app}\killbox.exe"; Description: "{cm:LaunchProgram,Killbox}"; Flags: nowait postinstall skipifsilent
