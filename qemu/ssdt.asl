/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SSDT of the test guests.
 *
 * \_SB.SPI0: one Intel Lynxpoint LPSS SPI controller (INT33C0) so that
 * drivers/acpi/x86/lpss.c binds to it under QEMU.  Its private registers sit
 * at LPSS_MMIO_BASE + 0x800 (GENERAL 0x808, SW_LTR 0x810, AUTO_LTR 0x814).
 *
 * Compile: iasl -p OUTBASE qemu/ssdt.asl   (writes OUTBASE.aml)
 * Use:     qemu-system-x86_64 -acpitable file=OUTBASE.aml ...
 *
 * The guest must not use that page as RAM: boot with
 * memmap=4K$LPSS_MMIO_BASE so guest RAM backs the "MMIO" and register
 * writes stick.  The #define below is the one place the address is
 * written: util/common.sh's lpss_base reads it for qemu/run-qemu.sh (which
 * also passes it to the guest scripts as lpss_base=) and bench/bench.sh.
 */
#define LPSS_MMIO_BASE 0x1F000000

/*
 * \_SB.TPLT: the ACPI companion that kmod/test_pcie_ltr_qos.c gives its host
 * bridge.  Its Root Port at 00:02.0, and Downstream Port at 05:01.0 below
 * the switch at 00:03.0, implement the PCI _DSM (Arg0 below), whose
 * function 6, "Latency Tolerance Reporting" (PCI Firmware r3.3, sec 4.6.6),
 * returns the maximum snoop and no-snoop latencies (scale and value of each)
 * for the component directly below.  The Root Port at 00:03.0 implements
 * it too.  The values are distinct, so that a test can tell which port's
 * were programmed:
 *	RP02: snoop scale 2 value 500 (0x09f4, 512000 ns),
 *	      no-snoop scale 3 value 20 (0x0c14, 655360 ns)
 *	RP03: snoop scale 2 value 300 (0x092c, 307200 ns),
 *	      no-snoop scale 2 value 900 (0x0b84, 921600 ns)
 *	DSP1: snoop scale 2 value 200 (0x08c8, 204800 ns),
 *	      no-snoop scale 2 value 400 (0x0990, 409600 ns)
 * RP01 returns snoop value 1024, which does not fit the 10-bit field, and
 * a valid no-snoop: the package is to be ignored as a whole.
 */
DefinitionBlock ("", "SSDT", 2, "PMQOS", "TEST", 0x00000001)
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

        Device (TPLT)
        {
            Name (_ADR, Zero)

            /*
             * The PCI _DSM (Arg0, Arg2 of _DSM) of a port whose function 6
             * returns Package { Arg2, Arg3, Arg4, Arg5 }
             */
            Method (LDSM, 6, Serialized)
            {
                If (Arg0 == ToUUID ("E5C937D0-3553-4D7A-9117-EA4D19C3434D"))
                {
                    If (Arg1 == Zero)
                    {
                        Return (Buffer () { 0x41 })
                    }

                    If (Arg1 == 6)
                    {
                        Local0 = Package (0x04) { Zero, Zero, Zero, Zero }
                        Local0 [Zero] = Arg2
                        Local0 [One] = Arg3
                        Local0 [0x02] = Arg4
                        Local0 [0x03] = Arg5
                        Return (Local0)
                    }
                }

                Return (Buffer () { 0x00 })
            }

            /* A package that does not fit the LTR fields: ignored */
            Device (RP01)
            {
                Name (_ADR, 0x00010000)
                Method (_DSM, 4, Serialized)
                {
                    Return (LDSM (Arg0, Arg2, 2, 1024, 2, 100))
                }
            }

            Device (RP02)
            {
                Name (_ADR, 0x00020000)
                Method (_DSM, 4, Serialized)
                {
                    Return (LDSM (Arg0, Arg2, 2, 500, 3, 20))
                }
            }

            Device (RP03)
            {
                Name (_ADR, 0x00030000)
                Method (_DSM, 4, Serialized)
                {
                    Return (LDSM (Arg0, Arg2, 2, 300, 2, 900))
                }

                Device (USP0)
                {
                    Name (_ADR, Zero)

                    Device (DSP1)
                    {
                        Name (_ADR, 0x00010000)
                        Method (_DSM, 4, Serialized)
                        {
                            Return (LDSM (Arg0, Arg2, 2, 200, 2, 400))
                        }
                    }
                }
            }
        }
    }
}
