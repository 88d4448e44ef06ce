# VirtBench target probe for Windows: prints facts about this machine as key=value lines.
# Read-only and harmless. A fact that cannot be found is left out, never guessed.
$ErrorActionPreference = 'SilentlyContinue'
$ProgressPreference = 'SilentlyContinue'

function Out-Fact([string]$Key, $Value) {
  if ($null -ne $Value -and "$Value" -ne '') {
    [Console]::Out.Write($Key + '=' + ("$Value" -replace "[`r`n]+", ' ') + [char]10)
  }
}

$os = Get-CimInstance Win32_OperatingSystem
$cs = Get-CimInstance Win32_ComputerSystem
$cpu = Get-CimInstance Win32_Processor | Select-Object -First 1
$bios = Get-CimInstance Win32_BIOS

Out-Fact 'os' 'Windows'
Out-Fact 'kernel' $os.Version
Out-Fact 'arch' $env:PROCESSOR_ARCHITECTURE
Out-Fact 'distro' $os.Caption
Out-Fact 'cpus' $cs.NumberOfLogicalProcessors
Out-Fact 'cpu_model' $cpu.Name
Out-Fact 'mem_total_bytes' $cs.TotalPhysicalMemory
Out-Fact 'cpu_hypervisor_flag' $(if ($cs.HypervisorPresent) { 'yes' } else { 'no' })
Out-Fact 'dmi_sys_vendor' $cs.Manufacturer
Out-Fact 'dmi_product_name' $cs.Model
Out-Fact 'bios_version' $bios.SMBIOSBIOSVersion
exit 0
