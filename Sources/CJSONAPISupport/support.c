// The module is header-only (see include/CJSONAPISupport.h); SwiftPM wants one source file.
#include "CJSONAPISupport.h"
