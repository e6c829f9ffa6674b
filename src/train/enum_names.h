/* The name table of every public enumeration (km_enum), gathered from the layers that own them. */
#ifndef KM_TRAIN_ENUM_NAMES_H
#define KM_TRAIN_ENUM_NAMES_H

#include "core/names.h"

/* The table of a public enumeration, or NULL for an unknown km_enum. */
const km_name *km_enum_table(km_enum e);

#endif
