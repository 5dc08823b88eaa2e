/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SSDT declaring one Intel Lynxpoint LPSS SPI controller (INT33C0) so that
 * drivers/acpi/x86/lpss.c binds to it under QEMU.  Its private registers sit
 * at LPSS_MMIO_BASE + 0x800 (GENERAL 0x808, SW_LTR 0x810, AUTO_LTR 0x814).
 *
 * Compile: iasl -p OUTBASE qemu/lpss-ssdt.asl   (writes OUTBASE.aml)
 * Use:     qemu-system-x86_64 -acpitable file=OUTBASE.aml ...
 *
 * The guest must not use that page as RAM: boot with
 * memmap=4K$LPSS_MMIO_BASE so guest RAM backs the "MMIO" and register
 * writes stick.  The #define below is the one place the address is
 * written: lib/common.sh's lpss_base reads it for qemu/run-qemu.sh (which
 * also passes it to the guest scripts as lpss_base=) and bench/bench.sh.
 */
#define LPSS_MMIO_BASE 0x1F000000

DefinitionBlock ("", "SSDT", 2, "PMQOS", "LPSS", 0x00000001)
{
    External (\_SB, DeviceObj)

    Scope (\_SB)
    {
        Device (SPI0)
        {
            Name (_HID, "INT33C0")
            Name (_UID, Zero)

            Method (_STA, 0, NotSerialized)
            {
                Return (0x0F)
            }

            Name (_CRS, ResourceTemplate ()
            {
                Memory32Fixed (ReadWrite, LPSS_MMIO_BASE, 0x00001000)
            })
        }
    }
}
