/** @file kit_lab.h What a lab's student file may use from the kit: KIT_HD, the key types, kit_gcd and the "not implemented" marker. */
#ifndef KIT_LAB_H
#define KIT_LAB_H

#include "kit_stub.h"
#include "kit_types.h"

#ifdef __cplusplus
#include "kit_device.h" /* kit_shared, KIT_DYNAMIC_SHARED, KIT_LAUNCH; the CPU emulation in CPU builds */
#endif

#endif
