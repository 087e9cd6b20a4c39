// Which of a plugin's options its init refused, as a JSON path for the error that fails
// start-up (OptionsRefused in plugin_loader.hpp).
#pragma once

#include <string>

namespace hxrt::detail {

// "/plugins/options/<name>/<key>" for the option key of `options` (a JSON object's text)
// that `message` quotes first ('key', "key" or `key`, or a path into it: 'key.inner',
// 'key[1].inner'); "/plugins/options/<name>" when it
// quotes none, or when `options` is no JSON object.
std::string refused_options_path(const std::string& name, const std::string& options,
                                 const std::string& message);

}  // namespace hxrt::detail
